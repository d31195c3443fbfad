/** The REST calls the MCP tools make, against any Engram base URL with one key. */
export interface EngramResponse {
  status: number;
  body: any;
}

export class EngramHttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
    private readonly timeoutMs = 30_000,
  ) {}

  async request(method: string, path: string, options: { query?: Record<string, unknown>; body?: unknown } = {}): Promise<EngramResponse> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      // Booleans go as `true`, and only when true (compat-notes).
      if (value === undefined || value === null || value === false) continue;
      url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { Authorization: `Bearer ${this.key}`, Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { code: 'invalid_response', message: text.slice(0, 200) };
    }
    return { status: res.status, body };
  }
}
