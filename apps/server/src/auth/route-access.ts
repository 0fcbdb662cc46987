import type { Action } from '@cdms/contract';
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { withRefusals } from '../http/refusals.ts';
import { authenticate, identify, principalOf, requireSystemAdmin } from './authenticate.ts';
import { authorize } from './authorize.ts';
import type { WriteGate } from './write-gate.ts';

/**
 * Who may call a route (issue 44 item 3), declared in its options — `config: { access: … }` — and
 * enforced here, in one place, before the handler runs:
 * - `'public'`: anyone, no session (health, sign-in);
 * - `'identified'`: the session if there is one (who is signed in);
 * - `'signed-in'`: any signed-in user, for what is their own (their account, their studies, uploads);
 * - `'system-admin'`: system administrators;
 * - `{ study: 'member' | action }`: a member of the path's `:studyId` (404 otherwise, as for a study
 *   that does not exist) who, for an action, holds it at study level (403). What depends on data the
 *   command loads — the site of a subject, of a query, of a range — the command checks with
 *   `authorize`. `systemAdmins: true` lets system administrators in without a membership (notices:
 *   they write the global ones).
 * An /api route without a declaration stops the server at start, so none is left open by accident.
 */
export type Access =
  | 'public'
  | 'identified'
  | 'signed-in'
  | 'system-admin'
  | { study: Action | 'member'; systemAdmins?: true };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (`auth/route-access.ts`). */
    access?: Access;
  }
  interface FastifyInstance {
    /** Every /api route registered, by method and URL pattern, with its declared access (see app.ts). */
    apiRoutes: { method: string; url: string; access: Access | undefined }[];
  }
}

/** The onRoute hook that turns each /api route's declared access into its preHandlers. */
export function applyAccess(context: AppContext, writeGate: WriteGate): (route: RouteOptions) => void {
  const signedIn = authenticate(context);
  const identified = identify(context);
  return (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (access === undefined)
      throw new Error(`${route.url}: declare who may call it (config.access, auth/route-access.ts).`);
    const own = [route.preHandler ?? []].flat();
    route.preHandler = [...hooksFor(context, writeGate, access, signedIn, identified), ...own];
  };
}

function hooksFor(
  context: AppContext,
  writeGate: WriteGate,
  access: Access,
  signedIn: ReturnType<typeof authenticate>,
  identified: ReturnType<typeof identify>,
) {
  if (access === 'public') return [];
  if (access === 'identified') return [identified];
  if (access === 'signed-in') return [signedIn];
  if (access === 'system-admin') return [signedIn, requireSystemAdmin];
  return [signedIn, studyAccess(context, writeGate, access)];
}

function studyAccess(
  context: AppContext,
  writeGate: WriteGate,
  { study: action, systemAdmins }: { study: Action | 'member'; systemAdmins?: true },
) {
  return withRefusals(
    async (request: FastifyRequest): Promise<void> => {
      const principal = principalOf(request);
      if (systemAdmins && principal.user.is_admin) return;
      const { studyId } = request.params as { studyId: number };
      authorize(principal, action, { studyId });
      // A route declared with a site data write (issue 51 item 4) waits for the required training
      // here, so a new route of such an action is held back without its command remembering to.
      if (action !== 'member' && writeGate.actions.includes(action))
        await writeGate.refuse(context.database.db, principal, studyId, action);
    },
    action === 'member'
      ? { 404: 'No such study, or the caller is not one of its members (`not_found`).' }
      : {
          403: writeGate.actions.includes(action)
            ? `The caller's roles in the study do not allow \`${action}\` (\`forbidden\`); or: ${writeGate.refusal}`
            : `The caller's roles in the study do not allow \`${action}\` (\`forbidden\`).`,
          404: 'No such study, or the caller is not one of its members (`not_found`).',
        },
  );
}
