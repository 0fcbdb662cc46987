import type { SignatureRecord, SignatureResponse, SignCasebookRequest } from '@cdms/contract';
import { getFormLayout, type Language, resolveVisit, type StudyDefinition } from '@cdms/study';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppCodeField } from '../../../components/app-code-field.tsx';
import { Button } from '../../../components/button.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { TextField } from '../../../components/text-field.tsx';
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
  const [modalKey, setModalKey] = useState(0);

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
          <Button
            onClick={() => {
              setModalKey((key) => key + 1); // an empty password field each time
              modals.open(SIGN_MODAL);
            }}
          >
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
        key={modalKey}
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

/** The signing dialog: what the signature means, and the signer's password entered again. */
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
  const modals = useModalStack();
  const toast = useToast();
  const sign = useSignCasebook(studyId, subjectPk);
  // A signer with two-factor sign-in gives the authenticator code too (the server asks for it).
  const needsCode = useMe().data?.user.secondFactorEnrolled === true;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError(t('modal.passwordRequired'));
      return;
    }
    try {
      const trimmedCode = code.replace(/\s/g, '');
      await sign.mutateAsync(needsCode && trimmedCode ? { password, code: trimmedCode } : { password });
      modals.close(SIGN_MODAL);
      toast(t('signed'), 'success');
      onSigned();
    } catch (failure) {
      setPassword('');
      setCode('');
      // A wrong password, too many attempts, already signed: the server's message in the user's language.
      setError(errorText(failure));
    }
  }

  return (
    <Modal
      name={SIGN_MODAL}
      title={t('modal.title')}
      description={t('modal.description', { subject: subjectLabel, name: signerName })}
      width="sm"
    >
      <form onSubmit={(event) => void submit(event)} noValidate className={styles.modalForm}>
        <div className={styles.statement}>
          <p className={styles.statementLabel}>{t('modal.statement')}</p>
          <p className={styles.statementText}>{meaning}</p>
        </div>
        <TextField
          label={t('modal.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            setError(null);
          }}
          error={error ?? undefined}
          autoFocus
        />
        {needsCode ? (
          <AppCodeField
            label={t('modal.code')}
            value={code}
            onChange={(value) => {
              setCode(value);
              setError(null);
            }}
          />
        ) : null}
        <div className={styles.modalActions}>
          <Button variant="secondary" onClick={() => modals.close(SIGN_MODAL)}>
            {t('modal.cancel')}
          </Button>
          <Button type="submit" disabled={sign.isPending}>
            {sign.isPending ? t('modal.signing') : t('modal.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
