/** Small helpers for building parameterised WHERE clauses. */
export class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];

  eq(column: string, value: unknown): this {
    if (value === null) this.parts.push(`${column} IS NULL`);
    else {
      this.parts.push(`${column} = ?`);
      this.params.push(value);
    }
    return this;
  }

  /** Adds `column = value` unless value is undefined (undefined means "any"). */
  maybe(column: string, value: unknown): this {
    return value === undefined ? this : this.eq(column, value);
  }

  in(column: string, values: readonly unknown[]): this {
    if (values.length === 0) this.parts.push('0');
    else {
      this.parts.push(`${column} IN (${values.map(() => '?').join(',')})`);
      this.params.push(...values);
    }
    return this;
  }

  raw(sql: string, ...params: unknown[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }

  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

export const json = (value: unknown) => JSON.stringify(value);
export const parse = <T>(text: string): T => JSON.parse(text) as T;
