import { describe, expect, it } from 'vitest';
import { GraphRows } from './graph-rows.js';

const meta = (id: string, userId: string | null, extra: { agentId?: string | null; runId?: string | null; terms?: string[]; rev?: number } = {}) => ({
  id,
  userId,
  agentId: extra.agentId ?? null,
  runId: extra.runId ?? null,
  terms: extra.terms ?? [],
  rev: extra.rev,
});

describe('GraphRows', () => {
  it('finds rows by id, key and scope, and forgets a removed row everywhere', () => {
    const rows = new GraphRows();
    rows.add(meta('mem_1', 'ann', { agentId: 'bot', terms: ['k="v"'], rev: 7 }), 1, 0);
    rows.add(meta('mem_2', 'ann', { runId: 'r1' }), 2, 1);
    rows.add(meta('mem_3', null), 3, 2);
    expect(rows.size).toBe(3);
    expect(rows.meta(0)).toEqual({ id: 'mem_1', userId: 'ann', agentId: 'bot', runId: null, terms: ['k="v"'], rev: 7 });
    expect(rows.revOf(1)).toBeUndefined();
    expect(rows.slotOfKeyed(2)).toBe(1);
    expect(rows.matching({ workspaceId: 'ws', userId: 'ann' }).sort()).toEqual([0, 1]);
    expect(rows.matching({ workspaceId: 'ws', agentId: null }).sort()).toEqual([1, 2]);
    expect(rows.matching({ workspaceId: 'ws', userId: 'ann', runId: 'r1' })).toEqual([1]);
    expect(rows.matching({ workspaceId: 'ws', metadataTerms: ['k="v"'] })).toEqual([0]);
    expect(rows.matching({ workspaceId: 'ws', userId: 'bob' })).toEqual([]);

    rows.remove(1);
    expect(rows.slotOf('mem_2')).toBeUndefined();
    expect(rows.slotOfKeyed(2)).toBeUndefined();
    expect(rows.matching({ workspaceId: 'ws', runId: 'r1' })).toEqual([]);
    // A freed slot takes a new row (a new version gets a new key).
    rows.add(meta('mem_2', 'ann', { rev: 9 }), 4, 1);
    expect(rows.slotOf('mem_2')).toBe(1);
    expect(rows.keyOf(1)).toBe(4);
    expect(rows.revOf(1)).toBe(9);
  });

  it("lets go of a user's id with the user's last row", () => {
    const rows = new GraphRows();
    rows.add(meta('mem_1', 'erased-user'), 1, 0);
    rows.add(meta('mem_2', 'erased-user'), 2, 1);
    rows.add(meta('mem_3', 'kept'), 3, 2);
    rows.remove(0);
    rows.remove(1);
    expect(rows.matching({ workspaceId: 'ws', userId: 'erased-user' })).toEqual([]);
    // The name's number is taken by the next new name, not kept for the old one.
    rows.add(meta('mem_4', 'newcomer'), 4, 0);
    expect(rows.meta(0).userId).toBe('newcomer');
    expect(rows.meta(2).userId).toBe('kept');
    expect(JSON.stringify([...rows.slots()].map((s) => rows.meta(s)))).not.toContain('erased-user');
  });
});
