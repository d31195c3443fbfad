/**
 * Size and depth of parsed JSON, measured with an explicit stack: user input
 * can be nested far deeper than the call stack allows, so nothing recursive
 * (JSON.stringify, deep equality, driver serialisers) may see it before this
 * check has passed.
 */
export interface JsonLimits {
  /** Deepest allowed nesting; a flat object or array is depth 1, a scalar depth 0. */
  maxDepth: number;
  /** Largest allowed `JSON.stringify(value).length`. */
  maxChars: number;
}

export interface JsonShapeProblem {
  kind: 'depth' | 'size';
  limit: number;
  /** The top-level key (or array index) under which the limit was broken; undefined for the value itself. */
  field?: string | number;
}

const scalarChars = (value: unknown): number => {
  if (typeof value === 'string') return JSON.stringify(value).length;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return 4; // null
};

/** The first limit `value` breaks, or null; stops walking as soon as one is broken. */
export function jsonShapeProblem(value: unknown, limits: JsonLimits): JsonShapeProblem | null {
  let chars = 0;
  const stack: [unknown, number, string | number | undefined][] = [[value, 0, undefined]];
  while (stack.length > 0) {
    const [node, depth, field] = stack.pop()!;
    if (node === null || typeof node !== 'object') {
      chars += scalarChars(node);
    } else {
      if (depth + 1 > limits.maxDepth) return { kind: 'depth', limit: limits.maxDepth, field };
      const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
      chars += 2 + Math.max(0, keys.length - 1); // brackets and commas
      for (const key of keys) {
        if (typeof key === 'string') chars += JSON.stringify(key).length + 1;
        stack.push([(node as Record<string | number, unknown>)[key], depth + 1, depth === 0 ? key : field]);
      }
    }
    if (chars > limits.maxChars) return { kind: 'size', limit: limits.maxChars, field };
  }
  return null;
}

export const describeJsonProblem = (problem: JsonShapeProblem) =>
  problem.kind === 'depth' ? `must be nested at most ${problem.limit} levels deep` : `must serialise to at most ${problem.limit} characters`;
