import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from '../src/server-node-flags.ts';

export const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  process: ChildProcess;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string | null>;
}

/**
 * The real server (`apps/server/src/main.ts`, as `npm run serve` starts it) in a child process on a
 * free port, with the given environment on top of ours. Resolves once it prints its URL. Used by
 * the process tests and by the benchmark harness (`bench/`), which adds Node options (a profiler).
 * `onOutput` gets everything it prints from the start, even what comes before its URL (a background
 * job's first log lines: three-processes-behind-haproxy.test.ts counts them).
 */
export function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 180_000,
  nodeArgs: readonly string[] = [],
  onOutput?: (text: string) => void,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, 'apps/server/src/main.ts'], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      ...SERVER_ENVIRONMENT,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      // A server that did not start in time must not outlive the caller.
      child.kill('SIGKILL');
      reject(new Error(`the server did not start:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      onOutput?.(chunk.toString());
      output += chunk.toString();
      // Keep only the tail: a long-running server's warnings must not grow without bound.
      if (output.length > 20_000) output = output.slice(-10_000);
      const match = output.match(/running at (http:\/\/localhost:\d+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1].replace('localhost', '127.0.0.1'), exited });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it started:\n${output}`));
    });
  });
}

/** Signs in over HTTP; the headers carry the session cookie and CSRF token for writes. */
export async function signInOverHttp(base: string, email: string, password = 'cdms-demo-2026') {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200)
    throw new Error(`login as ${email}: ${response.status} ${await response.text()}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
}
