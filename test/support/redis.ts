/** The suite's Redis URL; tests that need Redis fail loudly without it (CI installs redis-server). */
export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('These tests need redis-server on PATH (apt-get install redis-server) or TEST_REDIS_URL');
  return url;
}
