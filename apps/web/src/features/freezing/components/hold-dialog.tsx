import type { HoldAbilities, HoldKindValue } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useHoldChange } from '../../../lib/holds-api.ts';
import styles from './freezing.module.css';

export const BOARD_HOLD_MODAL = 'freezing-hold';

export type HoldScope = 'selected' | 'site' | 'study';

export interface HoldDialogRequest {
  action: 'place' | 'lift';
  kind: HoldKindValue;
  scope: HoldScope;
  siteId: number | null;
}

/** The changes the reader may make: freeze and unfreeze (CRA, DM), lock and unlock (DM). */
function allowedChanges(abilities: HoldAbilities): { action: 'place' | 'lift'; kind: HoldKindValue }[] {
  const kinds: HoldKindValue[] = [
    ...(abilities.freeze ? (['frozen'] as const) : []),
    ...(abilities.lock ? (['locked'] as const) : []),
  ];
  return kinds.flatMap((kind) => (['place', 'lift'] as const).map((action) => ({ action, kind })));
}

/**
 * The board's one dialog for freezing, locking and their reversal (issue 15): which change, over the
 * selected subjects (all or nothing), one site, or the whole study, with a reason. The server's refusal
 * (a 409 naming what is already held or not held, a 403) stays in the dialog, in the user's language.
 */
export function HoldDialog({
  studyId,
  request,
  abilities,
  selected,
  sites,
  onDone,
}: {
  studyId: number;
  request: HoldDialogRequest;
  abilities: HoldAbilities;
  /** The selected subjects, with their screening numbers to name refusals. */
  selected: readonly { subjectPk: number; subjectId: string }[];
  sites: readonly { siteId: number; label: string }[];
  onDone: () => void;
}) {
  const { t } = useTranslation('holds');
  const id = useId();
  const toast = useToast();
  const change = useHoldChange(studyId);
  const [scope, setScope] = useState<HoldScope>(request.scope);
  const [siteId, setSiteId] = useState<number | null>(request.siteId ?? sites[0]?.siteId ?? null);
  const [chosen, setChange] = useState({ action: request.action, kind: request.kind });
  const { action, kind } = chosen;

  async function submit(reason: string): Promise<string | null> {
    try {
      if (scope === 'selected') {
        await change.mutateAsync({
          action: 'bulk',
          request: { action, kind, subjectPks: selected.map((row) => row.subjectPk), reason },
        });
      } else {
        const target =
          scope === 'study' ? { level: 'study' as const } : { level: 'site' as const, siteId: siteId ?? 0 };
        await change.mutateAsync({ action, request: { kind, target, reason } });
      }
      toast(t(`done.${action}.${kind}`), 'success');
      onDone();
      return null;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const refused = refusedSubjects(error.details, selected);
        if (refused.length > 0) return t('board.dialog.refused', { subjects: refused.join(', ') });
      }
      return error instanceof Error ? error.message : String(error);
    }
  }

  return (
    <ReasonDialog
      name={BOARD_HOLD_MODAL}
      title={t(`dialog.${action}.${kind}`)}
      description={t(`board.dialog.${action}.${kind}`)}
      reasonLabel={t('dialog.reason')}
      confirmLabel={t(`actions.${action}.${kind}`)}
      tone={action === 'place' ? 'danger' : 'primary'}
      onSubmit={submit}
    >
      <fieldset className={styles.scope}>
        <legend className={styles.scopeLegend}>{t('board.dialog.change')}</legend>
        {allowedChanges(abilities).map((choice) => (
          <label key={`${choice.action}-${choice.kind}`} className={styles.scopeOption}>
            <input
              type="radio"
              name={`${id}-change`}
              checked={choice.action === action && choice.kind === kind}
              onChange={() => setChange(choice)}
            />
            {t(`actions.${choice.action}.${choice.kind}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className={styles.scope}>
        <legend className={styles.scopeLegend}>{t('board.dialog.scope')}</legend>
        <label className={styles.scopeOption}>
          <input
            type="radio"
            name={`${id}-scope`}
            checked={scope === 'selected'}
            disabled={selected.length === 0}
            onChange={() => setScope('selected')}
          />
          {t('board.dialog.selected', { count: selected.length })}
        </label>
        <div className={styles.scopeOption}>
          <input
            id={`${id}-site`}
            type="radio"
            name={`${id}-scope`}
            checked={scope === 'site'}
            disabled={sites.length === 0}
            onChange={() => setScope('site')}
          />
          <label htmlFor={`${id}-site`}>{t('board.dialog.site')}</label>
          <select
            className={styles.scopeSelect}
            aria-label={t('board.dialog.siteChoice')}
            value={siteId ?? ''}
            disabled={scope !== 'site'}
            onChange={(event) => setSiteId(Number(event.target.value))}
          >
            {sites.map((site) => (
              <option key={site.siteId} value={site.siteId}>
                {site.label}
              </option>
            ))}
          </select>
        </div>
        <label className={styles.scopeOption}>
          <input
            type="radio"
            name={`${id}-scope`}
            checked={scope === 'study'}
            onChange={() => setScope('study')}
          />
          {t('board.dialog.study')}
        </label>
      </fieldset>
    </ReasonDialog>
  );
}

/** The screening numbers of the subjects a bulk 409 names (`details.subjectPks`). */
export function refusedSubjects(
  details: unknown,
  selected: readonly { subjectPk: number; subjectId: string }[],
): string[] {
  if (!details || typeof details !== 'object') return [];
  const pks = (details as { subjectPks?: unknown }).subjectPks;
  if (!Array.isArray(pks)) return [];
  return pks
    .filter((pk): pk is number => typeof pk === 'number')
    .map((pk) => selected.find((row) => row.subjectPk === pk)?.subjectId ?? `#${pk}`);
}
