import type { SiteSummary } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { generatePath, useNavigate } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { paths } from '../../../lib/paths.ts';
import { useOpenAmendment } from '../api/amendments.ts';
import {
  type FieldProblems,
  fieldProblems,
  NumberAndSiteDates,
  type SiteDateDraft,
  sentSiteDates,
} from './amendment-fields.tsx';

export const NEW_AMENDMENT_MODAL = 'new-amendment';

const emptyDates = (sites: readonly SiteSummary[]): SiteDateDraft[] =>
  sites.map((site) => ({ siteId: site.id, label: `${site.code} ${site.name}`, effectiveOn: '' }));

/**
 * The "New amendment" button and its dialog: the number, the reason and each site's ethics approval
 * date, in the shared reason dialog (the reason is the amendment's). On 201 the amendment's page opens;
 * a refusal (a draft already open, the number taken, the study not live) stays in the dialog.
 * The fields' state lives here, outside the dialog's content, so the button resets it on every opening.
 */
export function NewAmendment({ studyId, sites }: { studyId: number; sites: readonly SiteSummary[] }) {
  const { t } = useTranslation('amendments');
  const modals = useModalStack();
  const navigate = useNavigate();
  const openAmendment = useOpenAmendment(studyId);
  const [number, setNumber] = useState('');
  const [dates, setDates] = useState<SiteDateDraft[]>([]);
  const [problems, setProblems] = useState<FieldProblems | null>(null);

  function open() {
    setNumber('');
    setDates(emptyDates(sites));
    setProblems(null);
    modals.open(NEW_AMENDMENT_MODAL);
  }

  async function submit(reason: string): Promise<string | null> {
    const found = fieldProblems(number, dates, t);
    setProblems(found);
    if (found) return t('fields.fixFirst');
    try {
      const { id } = await openAmendment.mutateAsync({
        number: number.trim(),
        reason,
        sites: sentSiteDates(dates),
      });
      navigate(generatePath(paths.amendment, { studyId: String(studyId), amendmentId: String(id) }));
      return null;
    } catch (error) {
      return errorText(error);
    }
  }

  return (
    <>
      <Button onClick={open}>{t('new.open')}</Button>
      <ReasonDialog
        name={NEW_AMENDMENT_MODAL}
        title={t('new.title')}
        description={t('new.description')}
        reasonLabel={t('fields.reason')}
        confirmLabel={t('new.submit')}
        onSubmit={submit}
      >
        <NumberAndSiteDates
          number={number}
          onNumber={setNumber}
          sites={dates}
          onDate={(siteId, effectiveOn) =>
            setDates((current) =>
              current.map((site) => (site.siteId === siteId ? { ...site, effectiveOn } : site)),
            )
          }
          problems={problems}
        />
      </ReasonDialog>
    </>
  );
}
