import http from 'node:http';

// A minimal keep-alive HTTP client: the load generator shares two cores with the server, so it
// should spend as little as it can per request (node:http directly, no fetch machinery).

export interface HttpResponse {
  status: number;
  body: string;
  setCookie: string[];
}

export type Headers = Record<string, string>;

export class HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly origin: URL;

  constructor(baseUrl: string) {
    this.origin = new URL(baseUrl);
  }

  request(
    method: string,
    path: string,
    headers: Headers = {},
    body?: string | Buffer,
  ): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          agent: this.agent,
          host: this.origin.hostname,
          port: this.origin.port,
          method,
          path,
          headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              setCookie: response.headers['set-cookie'] ?? [],
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      if (body !== undefined) request.write(body);
      request.end();
    });
  }

  /**
   * A GET whose body is counted and dropped as it comes (a large download must not sit in the load
   * generator's memory): the status and the bytes received.
   */
  download(path: string, headers: Headers = {}): Promise<{ status: number; bytes: number }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          agent: this.agent,
          host: this.origin.hostname,
          port: this.origin.port,
          method: 'GET',
          path,
          headers,
        },
        (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Signs in; the headers carry the session cookie and the CSRF token writes need (send them on every request). */
export async function signIn(client: HttpClient, email: string, password: string): Promise<Headers> {
  const response = await client.request(
    'POST',
    '/api/auth/login',
    { 'content-type': 'application/json' },
    JSON.stringify({ email, password }),
  );
  if (response.status !== 200) throw new Error(`login as ${email}: ${response.status} ${response.body}`);
  const cookie = response.setCookie.map((value) => value.split(';')[0]).join('; ');
  const { csrfToken } = JSON.parse(response.body) as { csrfToken: string };
  return { cookie, 'x-csrf-token': csrfToken };
}
