/**
 * Record builders shared by the contract suites. Every test takes a fresh random
 * workspace id (and random names for global keys such as locks and sequences),
 * so the suites can run against a shared database server.
 */
import { randomUUID } from 'node:crypto';
import type { BatchRecord, FactRecord, MemoryRecord } from '../types.js';

export const uid = (prefix = '') => `${prefix}${randomUUID().replace(/-/g, '')}`;
export const newWorkspaceId = () => uid('ws_');

const BASE = Date.UTC(2024, 0, 1, 12, 0, 0);
/** A deterministic ISO instant `n` seconds after the suite's epoch. */
export const at = (n: number) => new Date(BASE + n * 1000).toISOString();

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function memory(workspaceId: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id: uid('mem_'),
    workspaceId,
    userId: null,
    agentId: null,
    runId: null,
    content: 'I like green tea',
    metadata: {},
    status: 'processing',
    error: null,
    version: 1,
    seq: 1,
    referenceTime: null,
    createdAt: at(0),
    updatedAt: at(0),
    deletedAt: null,
    ...overrides,
  };
}

/** A batch still processing, its `received` items named mem_0, mem_1, … */
export function batch(workspaceId: string, received: number, overrides: Partial<BatchRecord> = {}): BatchRecord {
  return {
    id: uid('bat_'),
    workspaceId,
    status: 'processing',
    received,
    imported: 0,
    failed: 0,
    errors: [],
    memoryIds: Array.from({ length: received }, (_, i) => `mem_${i}`),
    createdAt: at(0),
    completedAt: null,
    ...overrides,
  };
}

export function fact(workspaceId: string, overrides: Partial<FactRecord> = {}): FactRecord {
  return {
    id: uid('fct_'),
    workspaceId,
    userId: null,
    agentId: null,
    runId: null,
    subject: 'user',
    subjectKey: 'user',
    subjectType: 'user',
    predicate: 'likes',
    predicateRaw: 'likes',
    family: 'preferences',
    object: 'green tea',
    objectKey: 'green tea',
    objectIsLiteral: false,
    tense: 'current',
    confidence: 0.9,
    validFrom: at(0),
    validFromStated: true,
    invalidAt: null,
    invalidatedBy: null,
    invalidated: [],
    confirmations: [],
    lastConfirmedAt: at(0),
    sourceMemoryId: null,
    sourceMemoryIds: [],
    sourceVersion: 1,
    seq: 1,
    createdAt: at(0),
    ...overrides,
  };
}

/** Unit vector from raw components (the vector index expects L2-normalised input). */
export function unit(...components: number[]): Float32Array {
  const norm = Math.hypot(...components);
  return Float32Array.from(components.map((c) => c / norm));
}

export const ids = (items: { id: string }[]) => items.map((i) => i.id);
export const sorted = <T>(values: T[]) => [...values].sort();
