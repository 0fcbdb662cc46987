import type { AmendmentResponse, PublishAmendmentRequest } from '@cdms/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { SignatureDialog } from '../../../components/signature-dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useMe } from '../../../lib/me.ts';
import { useAmendmentImpact, usePublishAmendment } from '../api/amendments.ts';
import styles from './amendments.module.css';

const PUBLISH_MODAL = 'publish-amendment';

/**
 * Why a draft cannot be published yet, as the server would refuse it (409 `amendment_not_ready`,
 * `amendment_impact_stale`); null when it can, or while the impact analysis is still being read.
 */
function publishBlocker(
  changeSet: AmendmentResponse['changeSet'],
  impact: ReturnType<typeof useAmendmentImpact>,
): 'noChangeSet' | 'notReady' | 'noImpact' | 'stale' | 'impactUnknown' | 'loading' | null {
  if (!changeSet) return 'noChangeSet';
  if (!changeSet.ready) return 'notReady';
  if (impact.isPending) return 'loading';
  if (impact.isError) return 'impactUnknown';
  if (impact.data.impact === null) return 'noImpact';
  if (!impact.data.impact.current) return 'stale';
  return null;
}

/**
 * A draft's "Publish (electronic signature)": enabled once the change set is ready and the impact
 * analysis was run on the draft as it is (otherwise the reason in words under it), it opens the shared
 * signature dialog saying what the signature means — approved: the next version becomes the study's
 * current one, and subjects move to it when their site's approval is in effect. The server's refusal
 * (a wrong password, a code needed, too many attempts, not ready, stale) is shown in the dialog; once
 * published, the page reads the amendment again and shows it published.
 */
export function PublishAmendment({ studyId, response }: { studyId: number; response: AmendmentResponse }) {
  const { t } = useTranslation('amendments');
  const id = useId();
  const modals = useModalStack();
  const toast = useToast();
  const me = useMe();
  const { amendment } = response;
  const impact = useAmendmentImpact(studyId, amendment.id);
  const publish = usePublishAmendment(studyId, amendment.id);
  const blocker = publishBlocker(response.changeSet, impact);

  async function submit(request: PublishAmendmentRequest): Promise<string | null> {
    try {
      await publish.mutateAsync(request);
    } catch (error) {
      return errorText(error);
    }
    toast(t('publish.done', { number: amendment.number }), 'success');
    return null;
  }

  return (
    <div className={styles.publish}>
      <Button
        disabled={blocker !== null}
        aria-describedby={blocker && blocker !== 'loading' ? `${id}-why` : undefined}
        onClick={() => modals.open(PUBLISH_MODAL)}
      >
        {t('publish.open')}
      </Button>
      {blocker && blocker !== 'loading' ? (
        <p id={`${id}-why`} className={styles.hint}>
          {t(`publish.why.${blocker}`)}
        </p>
      ) : null}
      <SignatureDialog
        name={PUBLISH_MODAL}
        title={t('publish.title', { number: amendment.number })}
        description={t('publish.description', { name: me.data?.user.name ?? '' })}
        meaning={t('publish.meaning', {
          from: amendment.fromVersion,
          to: amendment.toVersion ?? t('versionUnknown'),
        })}
        submitLabel={t('publish.submit')}
        pendingLabel={t('publish.pending')}
        onSubmit={submit}
      />
    </div>
  );
}
