import type { AmendmentResponse, PublishAmendmentRequest } from '@cdms/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { SignatureDialog } from '../../../components/signature-dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useMe } from '../../../lib/me.ts';
import { usePublishAmendment } from '../api/amendments.ts';
import styles from './amendments.module.css';

const PUBLISH_MODAL = 'publish-amendment';

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
  const publish = usePublishAmendment(studyId, amendment.id);
  // The server's own rule (the publication refuses the same): why the draft cannot be published yet.
  const blocker = response.publishBlocker;

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
        aria-describedby={blocker ? `${id}-why` : undefined}
        onClick={() => modals.open(PUBLISH_MODAL)}
      >
        {t('publish.open')}
      </Button>
      {blocker ? (
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
