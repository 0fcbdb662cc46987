import { BENCH_PASSWORD, READER_EMAIL } from './build-study/bench-study.ts';
import { HttpClient, signIn } from './load/http-client.ts';
import type { RunningServer } from './server/start-server.ts';

// What the amendment measurements share: the data manager's JSON calls, and a clean start (a draft
// left by an interrupted run discarded first: a study has one at a time).

/** A design draft's definition, as far as the bench's edits read it. */
export interface DraftDefinition {
  version: string;
  forms: { key: string; sections: { repeating?: unknown; items: Record<string, unknown>[] }[] }[];
}

export interface DesignerClient {
  call(method: string, path: string, body?: unknown): Promise<unknown>;
  close(): void;
}

/** The study's designer signed in: a JSON call that throws on any answer of 300 or more. */
export async function designerClient(server: RunningServer): Promise<DesignerClient> {
  const client = new HttpClient(server.url);
  const headers = await signIn(client, READER_EMAIL, BENCH_PASSWORD);
  const json = { ...headers, 'content-type': 'application/json' };
  return {
    async call(method, path, body) {
      const response = await client.request(
        method,
        path,
        // A body-less POST says nothing of JSON: an empty JSON body is a malformed one.
        body === undefined ? headers : json,
        body === undefined ? undefined : JSON.stringify(body),
      );
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.body}`);
      return JSON.parse(response.body || '{}') as unknown;
    },
    close: () => client.close(),
  };
}

/** Discards the study's draft amendment left by an earlier run, if any. */
export async function discardLeftDraft(designer: DesignerClient, amendmentsPath: string): Promise<void> {
  const listed = (await designer.call('GET', amendmentsPath)) as {
    amendments: { id: number; status: string }[];
  };
  for (const left of listed.amendments.filter((amendment) => amendment.status === 'draft'))
    await designer.call('POST', `${amendmentsPath}/${left.id}/discard`, {
      reason: 'bench: left by an earlier run',
    });
}
