import type { OverviewResponse, UnblindSubjectResponse } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { UnblindedBadge } from '../../../components/status-badge.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { subjectKeys, subjectPath } from '../api/subject-query-keys.ts';
import styles from './subjects.module.css';

export const UNBLIND_MODAL = 'subject-emergency-unblinding';

/**
 * The subject page's blinding (issue 51): the "unblinded" badge once its PI broke the blind, the group
 * for a reader the server lets know it, and for the subject's PI the emergency unblinding — a reason and
 * the password entered again (as an electronic signature), the group shown in the answer. The server
 * decides who may (`overview.blinding`); nothing here infers a group.
 */
export function EmergencyUnblinding({ studyId, overview }: { studyId: number; overview: OverviewResponse }) {
  const { t } = useTranslation('randomization');
  const modals = useModalStack();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [result, setResult] = useState<UnblindSubjectResponse | null>(null);
  const subject = overview.subject;
  const unblind = useMutation({
    mutationFn: (request: { reason: string; password: string }) =>
      apiRequest<UnblindSubjectResponse>(`${subjectPath(studyId, subject.id)}/unblind`, {
        method: 'POST',
        body: request,
      }),
    // The badge in the list and on the page, and the group on the page, all changed.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subjectKeys.all(studyId) }),
  });
  const { blinding } = overview;
  const group = result?.group ?? blinding.group;

  async function submit(reason: string): Promise<string | null> {
    try {
      const answer = await unblind.mutateAsync({ reason, password });
      setResult(answer);
      setPassword('');
      toast(t('unblind.done', { subject: subject.subjectId }), 'success');
      return null;
    } catch (error) {
      setPassword('');
      return error instanceof Error ? error.message : String(error);
    }
  }

  if (!blinding.unblinded && !blinding.mayBreak && !group) return null;
  return (
    <div className={styles.subjectHolds} data-testid="subject-blinding">
      {blinding.unblinded || result ? (
        <UnblindedBadge title={t('unblind.badgeHint')}>{t('unblind.badge')}</UnblindedBadge>
      ) : null}
      {group ? (
        <span className={styles.muted} data-testid="subject-group">
          {t('unblind.group', { group: t(`groups.${group}`) })}
        </span>
      ) : null}
      {blinding.mayBreak && !result ? (
        <Button variant="danger" size="sm" onClick={() => modals.open(UNBLIND_MODAL)}>
          {t('unblind.action')}
        </Button>
      ) : null}
      <ReasonDialog
        name={UNBLIND_MODAL}
        title={t('unblind.title')}
        description={t('unblind.description', { subject: subject.subjectId })}
        reasonLabel={t('unblind.reason')}
        confirmLabel={t('unblind.confirm')}
        tone="danger"
        disabled={password === ''}
        onSubmit={submit}
      >
        <TextField
          label={t('unblind.password')}
          type="password"
          autoComplete="current-password"
          maxLength={200}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </ReasonDialog>
    </div>
  );
}
