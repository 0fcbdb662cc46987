import type {
  AmendmentImpact,
  AmendmentImpactRow,
  AmendmentMigration,
  AmendmentMigrationsResponse,
  AmendmentResponse,
  AmendmentSummary,
} from '@cdms/contract';
import { vi } from 'vitest';

/** What the tests' server was sent: method, path and body of every write. */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}

export const sites = [
  { id: 1, code: 'S01', name: '서울병원', institutionNumber: '01' },
  { id: 2, code: 'S02', name: '부산병원', institutionNumber: '02' },
];

export function summary(overrides: Partial<AmendmentSummary> = {}): AmendmentSummary {
  return {
    id: 7,
    number: 'AM-01',
    reason: '활력 징후 양식 개정',
    status: 'draft',
    fromVersion: '1.0.0',
    toVersion: '1.1.0',
    openedBy: { userId: 1, name: '데이터 관리자', at: '2026-12-01T01:30:00.000Z' },
    publishedBy: null,
    contentHash: null,
    sites: [
      { siteId: 1, code: 'S01', name: '서울병원', effectiveOn: '2026-12-10' },
      { siteId: 2, code: 'S02', name: '부산병원', effectiveOn: null },
    ],
    ...overrides,
  };
}

/** The content hash amendment 7 is published with. */
export const PUBLISHED_HASH = 'a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468a3f1c9e07b5d2468';

/** Amendment 7 published by the data manager, with its content hash. */
export function publishedSummary(): AmendmentSummary {
  return summary({
    status: 'published',
    publishedBy: { userId: 1, name: '데이터 관리자', at: '2026-12-11T00:00:00.000Z' },
    contentHash: PUBLISHED_HASH,
  });
}

/** A migration job of amendment 7: the whole study, queued, by the data manager; `overrides` change it. */
export function migration(overrides: Partial<AmendmentMigration> = {}): AmendmentMigration {
  return {
    id: 1,
    scope: 'study',
    target: null,
    status: 'queued',
    automatic: false,
    requestedBy: { userId: 1, name: '데이터 관리자', at: '2026-12-11T01:00:00.000Z' },
    total: 0,
    migrated: 0,
    held: 0,
    failed: 0,
    failures: [],
    finishedAt: null,
    ...overrides,
  };
}

/**
 * The server of the amendment pages: `me` (a DM of live study 4 with two sites), the list, one
 * amendment, its last impact analysis (`impact`, null: none) and one page of its rows (`impactRows`,
 * whatever the filters), and the writes, recorded in `sent`. A write answers `refusal` when one is
 * given; a run of the analysis answers `impact`, once `runHeld` (when given) resolves. A publication
 * answers the amendment, which reads as `published` from then on (when given). The migrations
 * (`migrations`) answer one response per read, the last one again once they run out; a start answers
 * a queued job. The subject list (`subjects`) answers the subjects whose number contains `search`.
 */
export function serve({
  amendments = [summary()],
  amendment,
  studyStatus = 'active',
  refusal,
  impact = null,
  impactRows = [],
  runHeld,
  published,
  migrations = [],
  subjects = [],
  secondFactor = false,
}: {
  amendments?: AmendmentSummary[];
  amendment?: AmendmentResponse;
  studyStatus?: 'design' | 'active' | 'ended';
  refusal?: { status: number; code: string; message: string };
  impact?: AmendmentImpact | null;
  impactRows?: AmendmentImpactRow[];
  runHeld?: Promise<void>;
  published?: AmendmentResponse;
  migrations?: AmendmentMigrationsResponse[];
  subjects?: { pk: number; subjectId: string }[];
  /** The user signs in with an authenticator code (the signature dialog asks for it). */
  secondFactor?: boolean;
} = {}) {
  let current = amendment;
  let migrationReads = 0;
  const sent: SentRequest[] = [];
  const reads: string[] = [];
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const address = new URL(url, 'http://localhost');
      const method = init?.method ?? 'GET';
      if (address.pathname === '/api/auth/me')
        return json({
          user: {
            id: 1,
            name: '데이터 관리자',
            email: 'dm@demo.cdms',
            locale: 'ko',
            isAdmin: false,
            secondFactorEnrolled: secondFactor,
          },
          memberships: [
            {
              studyId: 4,
              studyCode: 'TINY-1',
              studyTitle: '작은 연구',
              studyTitleEn: 'Tiny study',
              studyStatus,
              roles: ['DM'],
              sites,
              abilities: ['subject.read', 'study.design'],
              designRoles: [],
            },
          ],
          csrfToken: 'token',
          session: {
            idleExpiresAt: '2099-01-01T00:00:00Z',
            absoluteExpiresAt: '2099-01-01T00:00:00Z',
            serverTime: '2026-12-01T00:00:00Z',
            idleTimeoutSeconds: 1800,
          },
        });
      if (method !== 'GET') {
        sent.push({ method, path: address.pathname, body: JSON.parse(String(init?.body ?? 'null')) });
        if (refusal) return json({ error: { code: refusal.code, message: refusal.message } }, refusal.status);
        if (address.pathname.endsWith('/impact')) {
          await runHeld;
          return json({ impact });
        }
        if (address.pathname.endsWith('/publish')) {
          current = published ?? current;
          return json(current && withPublishBlocker(current, impact));
        }
        if (address.pathname.endsWith('/migrations')) return json({ migration: migration() }, 201);
        return json({ id: 9 }, address.pathname.endsWith('/amendments') ? 201 : 200);
      }
      reads.push(`${address.pathname}${address.search}`);
      if (address.pathname === '/api/studies/4/amendments') return json({ amendments });
      if (current && address.pathname === `/api/studies/4/amendments/${current.amendment.id}`)
        return json(withPublishBlocker(current, impact));
      if (address.pathname === '/api/studies/4/amendments/7/migrations') {
        const answer = migrations[Math.min(migrationReads, migrations.length - 1)];
        migrationReads += 1;
        return json(answer ?? { migrations: [], subjects: { onFromVersion: 0, onToVersion: 0 } });
      }
      if (address.pathname === '/api/studies/4/subjects') {
        const search = (address.searchParams.get('search') ?? '').toUpperCase();
        const rows = subjects.filter((subject) => subject.subjectId.toUpperCase().includes(search));
        return json({
          subjects: rows.map((subject, index) => ({ ...subject, number: index + 1 })),
          total: rows.length,
          page: 1,
          size: 100,
        });
      }
      if (address.pathname === '/api/studies/4/amendments/7/impact') return json({ impact });
      if (address.pathname === '/api/studies/4/amendments/7/impact/rows')
        return json({
          rows: impactRows,
          total: impactRows.length,
          page: Number(address.searchParams.get('page')),
          size: Number(address.searchParams.get('size')),
        });
      return json({ error: { code: 'not_found', message: '찾을 수 없습니다.' } }, 404);
    }),
  );
  return { sent, reads };
}

/** The amendment as the server reads it: a draft says why it cannot be published yet (its own rule). */
function withPublishBlocker(response: AmendmentResponse, impact: AmendmentImpact | null): AmendmentResponse {
  if (response.amendment.status !== 'draft') return { ...response, publishBlocker: null };
  const { changeSet } = response;
  const publishBlocker = !changeSet
    ? 'noChangeSet'
    : !changeSet.ready
      ? 'notReady'
      : impact === null
        ? 'noImpact'
        : !impact.current
          ? 'stale'
          : null;
  return { ...response, publishBlocker };
}
