import type { SignatureRecord, SignatureResponse, SignCasebookRequest } from '@cdms/contract';
import { getFormLayout, type Language, resolveVisit, type StudyDefinition } from '@cdms/study';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { SignatureDialog } from '../../../components/signature-dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useMe } from '../../../lib/me.ts';
import { subjectKeys, subjectPath } from '../api/subject-query-keys.ts';
import styles from './signature-panel.module.css';

export const SIGN_MODAL = 'subject-sign';

/** Under the subject's key: every save of the subject refetches it (a save may invalidate the signature). */
const signatureKey = (studyId: number, subjectPk: number) =>
  [...subjectKeys.subject(studyId, subjectPk), 'signature'] as const;

export function useSignature(studyId: number, subjectPk: number, enabled = true) {
  return useQuery({
    queryKey: signatureKey(studyId, subjectPk),
    queryFn: () => apiRequest<SignatureResponse>(`${subjectPath(studyId, subjectPk)}/signature`),
    staleTime: 0,
    enabled,
  });
}

function useSignCasebook(studyId: number, subjectPk: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SignCasebookRequest) =>
      apiRequest<SignatureResponse>(`${subjectPath(studyId, subjectPk)}/signature`, {
        method: 'POST',
        body: request,
      }),
    onSuccess: async (data) => {
      queryClient.setQueryData(signatureKey(studyId, subjectPk), data);
      // The signing form, the overview marks and the list's signature column all changed.
      await queryClient.invalidateQueries({
        queryKey: subjectKeys.all(studyId),
        predicate: (query) =>
          JSON.stringify(query.queryKey) !== JSON.stringify(signatureKey(studyId, subjectPk)),
      });
    },
  });
}

/** `v1.demographicInfo.gender, …` as people read it: visit · form · item labels of the definition. */
export function changedItemsText(definition: StudyDefinition, reason: string, language: Language): string {
  return reason
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean)
    .map((path) => {
      const [visitKey = '', formKey = '', itemKey = ''] = path.split('.');
      const layout = getFormLayout(definition, visitKey, formKey);
      const visit = resolveVisit(definition, visitKey);
      const item = layout?.items.get(itemKey)?.item.label ?? layout?.groups.get(itemKey)?.label;
      if (!layout || !visit || !item) return path;
      return `${visit.label[language]} · ${layout.form.label[language]} · ${item[language]}`;
    })
    .join(', ');
}

function Manifestation({ signature, language }: { signature: SignatureRecord; language: Language }) {
  const { t } = useTranslation('signature');
  return (
    <dl className={styles.manifestation}>
      <div>
        <dt>{t('panel.signedBy')}</dt>
        <dd>
          <strong>{signature.printedName}</strong>
          {signature.role ? ` · ${t(`roles.${signature.role}`)}` : null}
        </dd>
      </div>
      <div>
        <dt>{t('panel.signedAt')}</dt>
        <dd>{formatDateTimeKst(signature.signedAt)}</dd>
      </div>
      <div className={styles.wide}>
        <dt>{t('panel.meaning')}</dt>
        <dd>{signature.meaning[language]}</dd>
      </div>
      <div className={styles.wide}>
        <dt>{t('panel.dataHash')}</dt>
        <dd className={styles.hash}>{signature.dataHash}</dd>
      </div>
    </dl>
  );
}

/**
 * The signature on the signing form (product.md "Electronic signature"): the manifestation of the
 * signature in force (printed name, role, date and time in UTC+9, meaning), or "not signed", or
 * "invalidated — re-sign required" with what changed; the Sign button for the PI who may sign now.
 */
export function SignaturePanel({
  studyId,
  subjectPk,
  subjectLabel,
  definition,
  language,
  onSigned,
}: {
  studyId: number;
  subjectPk: number;
  /** The subject as people name it (screening number). */
  subjectLabel: string;
  /** Labels the items whose change invalidated the signature. */
  definition: StudyDefinition;
  language: Language;
  /** After a signature: the form reloads its values from the server. */
  onSigned: () => void;
}) {
  const { t } = useTranslation('signature');
  const modals = useModalStack();
  const signature = useSignature(studyId, subjectPk);
  const me = useMe();

  if (signature.isPending) return <p className={styles.panel}>{t('panel.loading')}</p>;
  if (signature.isError) {
    return (
      <div className={styles.panel} role="alert">
        <p>{signature.error.message || t('panel.loadError')}</p>
        <Button variant="secondary" size="sm" onClick={() => void signature.refetch()}>
          {t('panel.retry')}
        </Button>
      </div>
    );
  }
  const { state, current, history, canSign, meaning } = signature.data;

  return (
    <section className={styles.panel} data-state={state} aria-labelledby="signature-panel-title">
      <div className={styles.head}>
        <h2 id="signature-panel-title" className={styles.title}>
          {t('panel.title')}
          <span className={styles.badge} data-state={state}>
            {t(`panel.state.${state}`)}
          </span>
        </h2>
        {canSign ? (
          <Button onClick={() => modals.open(SIGN_MODAL)}>
            {state === 'invalidated' ? t('panel.signAgain') : t('panel.sign')}
          </Button>
        ) : null}
      </div>

      {state === 'none' || !current ? <p className={styles.text}>{t('panel.noneText')}</p> : null}
      {state === 'signed' && current ? (
        <>
          <p className={styles.text}>{t('panel.signedText')}</p>
          <Manifestation signature={current} language={language} />
        </>
      ) : null}
      {state === 'invalidated' && current ? (
        <>
          <p className={styles.warning} role="status">
            {t('panel.invalidatedText', { time: formatDateTimeKst(current.invalidatedAt) })}
            {current.invalidatedReason ? (
              <>
                <br />
                <span className={styles.reason}>
                  {t('panel.changed')}: {changedItemsText(definition, current.invalidatedReason, language)}
                </span>
              </>
            ) : null}
          </p>
          <div className={styles.superseded}>
            <Manifestation signature={current} language={language} />
          </div>
        </>
      ) : null}

      {history.length > 1 ? (
        <details className={styles.history}>
          <summary>{t('panel.history', { count: history.length })}</summary>
          <table className={styles.historyTable}>
            <thead>
              <tr>
                <th scope="col">{t('panel.signedAt')}</th>
                <th scope="col">{t('panel.signedBy')}</th>
                <th scope="col">{t('panel.historyState')}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDateTimeKst(entry.signedAt)}</td>
                  <td>{entry.printedName}</td>
                  <td>
                    {entry.invalidatedAt
                      ? t('panel.historyStateInvalidated', { time: formatDateTimeKst(entry.invalidatedAt) })
                      : t('panel.historyStateSigned')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}

      <p className={styles.note}>{t('panel.formNote')}</p>

      <SignModal
        studyId={studyId}
        subjectPk={subjectPk}
        subjectLabel={subjectLabel}
        signerName={me.data?.user.name ?? ''}
        meaning={meaning[language]}
        onSigned={onSigned}
      />
    </section>
  );
}

/** The signing dialog (the shared electronic-signature dialog): what the signature means, and the signer's password. */
function SignModal({
  studyId,
  subjectPk,
  subjectLabel,
  signerName,
  meaning,
  onSigned,
}: {
  studyId: number;
  subjectPk: number;
  subjectLabel: string;
  signerName: string;
  /** What the signature will mean (from the server). */
  meaning: string;
  onSigned: () => void;
}) {
  const { t } = useTranslation('signature');
  const toast = useToast();
  const sign = useSignCasebook(studyId, subjectPk);

  async function submit(request: SignCasebookRequest): Promise<string | null> {
    try {
      await sign.mutateAsync(request);
    } catch (failure) {
      // A wrong password, too many attempts, already signed: the server's message in the user's language.
      return errorText(failure);
    }
    toast(t('signed'), 'success');
    onSigned();
    return null;
  }

  return (
    <SignatureDialog
      name={SIGN_MODAL}
      title={t('modal.title')}
      description={t('modal.description', { subject: subjectLabel, name: signerName })}
      meaning={meaning}
      submitLabel={t('modal.submit')}
      pendingLabel={t('modal.signing')}
      onSubmit={submit}
    />
  );
}
