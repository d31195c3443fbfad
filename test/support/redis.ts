import type { Redis } from 'ioredis';

/** The suite's Redis URL; tests that need Redis fail loudly without it (CI installs redis-server). */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('These tests need redis-server on PATH (apt-get install redis-server) or TEST_REDIS_URL');
  return url;
}

/** Every Redis key matching `pattern` with its value (strings, hashes, lists, sets, sorted sets, streams) as text. */
export async function redisContents(redis: Redis, pattern = '*'): Promise<{ key: string; text: string }[]> {
  const out: { key: string; text: string }[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      let value: unknown = null;
      if (type === 'string') value = await redis.get(key);
      else if (type === 'hash') value = await redis.hgetall(key);
      else if (type === 'list') value = await redis.lrange(key, 0, -1);
      else if (type === 'set') value = await redis.smembers(key);
      else if (type === 'zset') value = await redis.zrange(key, 0, -1);
      else if (type === 'stream') value = await redis.xrange(key, '-', '+');
      out.push({ key, text: typeof value === 'string' ? value : JSON.stringify(value) });
    }
  } while (cursor !== '0');
  return out;
}

/** `redisContents` as one text: keys and values, one a line. */
export async function redisDump(redis: Redis, pattern = '*'): Promise<string> {
  return (await redisContents(redis, pattern)).flatMap(({ key, text }) => [key, text]).join('\n');
}
