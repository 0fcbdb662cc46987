import { type AmendmentResponse, REASON_MAX } from '@cdms/contract';
import type { AmendmentDeclarations } from '@cdms/study';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { generatePath, Link, Navigate, useNavigate, useParams } from 'react-router';
import { Button, buttonClassName } from '../../../components/button.tsx';
import { CountedTextArea } from '../../../components/counted-text-area.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { AmendmentStatusBadge } from '../../../components/status-badge.tsx';
import { PageState, StudyAbilityPage } from '../../../components/study-ability-page.tsx';
import { useToast } from '../../../components/toast.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { paths } from '../../../lib/paths.ts';
import { readId } from '../../../lib/subject-urls.ts';
import { useAmendment, useChangeAmendment, useDiscardAmendment } from '../api/amendments.ts';
import { declarationsOf, siteDates } from '../lib/declarations.ts';
import {
  type FieldProblems,
  fieldProblems,
  NumberAndSiteDates,
  type SiteDateDraft,
  sentSiteDates,
  Versions,
} from './amendment-fields.tsx';
import styles from './amendments.module.css';
import { ChangeSetView } from './change-set-view.tsx';
import { DeclarationList } from './declaration-list.tsx';
import { ImpactSection } from './impact-section.tsx';
import { MigrationSection } from './migration-section.tsx';
import { PublishAmendment } from './publish-amendment.tsx';

const DISCARD_MODAL = 'discard-amendment';

/**
 * `/design/:studyId/amendments/:amendmentId`: one amendment (issue 49) for the study's designers. A
 * draft's number, reason and sites' dates are edited here, its next version in the designer; its change
 * set says whether it can be published, and each question is answered in place (a declaration, sent
 * with the whole set and read back with the new change set); it is published with an e-signature. A
 * published amendment is shown read-only with its content hash, its subjects' migration and the impact
 * analysis it was published on; a discarded one as it was.
 */
export function AmendmentPage() {
  const amendmentId = readId(useParams().amendmentId);
  if (amendmentId === null) return <Navigate to={paths.notFound} replace />;
  return (
    <StudyAbilityPage ability="study.design" namespace="amendments">
      {(studyId) => <Amendment studyId={studyId} amendmentId={amendmentId} />}
    </StudyAbilityPage>
  );
}

function Amendment({ studyId, amendmentId }: { studyId: number; amendmentId: number }) {
  const { t, i18n } = useTranslation('amendments');
  const lang = i18n.language === 'en' ? 'en' : 'ko';
  const read = useAmendment(studyId, amendmentId, lang);
  if (read.isPending) return <PageState role="status">{t('page.loading')}</PageState>;
  if (read.isError)
    return (
      <PageState role="alert">
        <p>{errorText(read.error)}</p>
        <Button variant="secondary" onClick={() => void read.refetch()}>
          {t('page.retry')}
        </Button>
      </PageState>
    );
  return <AmendmentView studyId={studyId} response={read.data} />;
}

function AmendmentView({ studyId, response }: { studyId: number; response: AmendmentResponse }) {
  const { t } = useTranslation('amendments');
  const { amendment } = response;
  const draft = amendment.status === 'draft';
  const published = amendment.status === 'published';
  const change = useChangeAmendment(studyId, amendment.id);
  const [declareError, setDeclareError] = useState<string | null>(null);
  const declarations = declarationsOf(response);
  const listPath = generatePath(paths.amendments, { studyId: String(studyId) });
  const designerPath = generatePath(paths.design, { studyId: String(studyId) });

  /**
   * Sends the declarations with the amendment's fields as the server has them (unsaved edits of the
   * fields stay in their form, to be saved with its own button), then reads the change set again.
   */
  async function declare(next: AmendmentDeclarations) {
    setDeclareError(null);
    try {
      await change.mutateAsync({
        number: amendment.number,
        reason: amendment.reason,
        sites: siteDates(amendment.sites),
        declarations: next,
      });
    } catch (error) {
      setDeclareError(errorText(error));
    }
  }

  return (
    <>
      <header className={`${listStyles.card} ${styles.header}`}>
        <Link className={listStyles.rowLink} to={listPath}>
          {t('links.list')}
        </Link>
        <div className={styles.titleRow}>
          <h2 className={styles.amendmentTitle}>{t('detail.title', { number: amendment.number })}</h2>
          <AmendmentStatusBadge status={amendment.status}>
            {t(`status.${amendment.status}`)}
          </AmendmentStatusBadge>
          <Versions amendment={amendment} />
        </div>
        <p className={styles.hint}>
          {t('detail.opened', {
            name: amendment.openedBy.name,
            at: formatDateTimeKst(amendment.openedBy.at),
          })}
          {amendment.publishedBy
            ? ` · ${t('detail.published', {
                name: amendment.publishedBy.name,
                at: formatDateTimeKst(amendment.publishedBy.at),
              })}`
            : null}
        </p>
        {amendment.contentHash ? (
          <p className={styles.hint}>
            {t('detail.contentHash')}:{' '}
            <code className={styles.hash} title={amendment.contentHash}>
              {shortHash(amendment.contentHash)}
            </code>
          </p>
        ) : null}
        {draft ? (
          <>
            <div className={styles.headerActions}>
              <Link className={buttonClassName({ variant: 'secondary', size: 'sm' })} to={designerPath}>
                {t('links.editInDesigner')}
              </Link>
              <DiscardAmendment studyId={studyId} amendmentId={amendment.id} number={amendment.number} />
            </div>
            <PublishAmendment studyId={studyId} response={response} />
          </>
        ) : null}
      </header>
      <div className={styles.columns}>
        <div className={styles.mainColumn}>
          {/* An answer or a removal the server refused: above both the change set and the declarations. */}
          <FormAlert message={declareError} className={styles.error} />
          {draft ? (
            <ChangeSetView
              changeSet={response.changeSet}
              definitionProblems={response.definitionProblems}
              declarations={declarations}
              designerPath={designerPath}
              pending={change.isPending}
              onDeclare={(next) => void declare(next)}
            />
          ) : null}
          <DeclarationList
            declarations={declarations}
            onRemove={draft ? (next) => void declare(next) : null}
            pending={change.isPending}
          />
        </div>
        <div className={styles.sideColumn}>
          {draft ? (
            // Keyed by what the server holds: after a save or another tab's change the form starts from it.
            <DraftFields
              key={`${amendment.number}\n${amendment.reason}\n${JSON.stringify(amendment.sites)}`}
              studyId={studyId}
              response={response}
            />
          ) : (
            <ReadOnlyFields response={response} />
          )}
        </div>
      </div>
      {/* A published amendment's subjects moving to its version, first: what is still to do. */}
      {published ? <MigrationSection studyId={studyId} amendment={amendment} /> : null}
      {/* Below both columns, the whole width: the rows' table needs the room. A draft's analysis can be
          run again; a published amendment's, the one it was published on, is only read; a discarded
          amendment's is gone with its draft. */}
      {draft || published ? (
        <ImpactSection
          studyId={studyId}
          amendmentId={amendment.id}
          changeSet={response.changeSet}
          readOnly={published}
        />
      ) : null}
    </>
  );
}

/** A content hash as the page shows it: its first 16 characters (the whole in the title). */
function shortHash(hash: string): string {
  return hash.length > 16 ? `${hash.slice(0, 16)}…` : hash;
}

/** A draft's number, reason and sites' dates, saved with the declarations unchanged. */
function DraftFields({ studyId, response }: { studyId: number; response: AmendmentResponse }) {
  const { t } = useTranslation('amendments');
  const { t: ui } = useTranslation('ui');
  const id = useId();
  const toast = useToast();
  const { amendment } = response;
  const change = useChangeAmendment(studyId, amendment.id);
  const [number, setNumber] = useState(amendment.number);
  const [reason, setReason] = useState(amendment.reason);
  const [dates, setDates] = useState<SiteDateDraft[]>(() =>
    amendment.sites.map((site) => ({
      siteId: site.siteId,
      label: `${site.code} ${site.name}`,
      effectiveOn: site.effectiveOn ?? '',
    })),
  );
  const [problems, setProblems] = useState<FieldProblems | null>(null);
  const [reasonProblem, setReasonProblem] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    const found = fieldProblems(number, dates, t);
    const noReason = reason.trim() === '' ? ui('reason.required') : null;
    setProblems(found);
    setReasonProblem(noReason);
    setSaveError(null);
    if (found || noReason) return;
    try {
      await change.mutateAsync({
        number: number.trim(),
        reason: reason.trim(),
        sites: sentSiteDates(dates),
        declarations: response.declarations,
      });
      toast(t('fields.saved'), 'success');
    } catch (error) {
      setSaveError(errorText(error));
    }
  }

  return (
    <section className={`${listStyles.card} ${styles.section}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        {t('fields.title')}
      </h2>
      <form className={styles.fieldsForm} noValidate onSubmit={(event) => void save(event)}>
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
        <div>
          <CountedTextArea
            id={`${id}-reason`}
            label={t('fields.reason')}
            value={reason}
            onChange={setReason}
            maxLength={REASON_MAX}
            counter={ui('reason.counter', { count: reason.length, max: REASON_MAX })}
            problem={reasonProblem}
            required
            rows={4}
          />
        </div>
        <FormAlert message={saveError} className={styles.error} />
        <div className={styles.formActions}>
          <Button type="submit" disabled={change.isPending} aria-busy={change.isPending}>
            {t('fields.save')}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** A published or discarded amendment's fields, as they were. */
function ReadOnlyFields({ response }: { response: AmendmentResponse }) {
  const { t } = useTranslation('amendments');
  const id = useId();
  const { amendment } = response;
  return (
    <section className={`${listStyles.card} ${styles.section}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        {t('fields.title')}
      </h2>
      <dl className={styles.facts}>
        <div className={styles.factRow}>
          <dt>{t('fields.number')}</dt>
          <dd>{amendment.number}</dd>
        </div>
        <div className={styles.factRow}>
          <dt>{t('fields.reason')}</dt>
          <dd className={styles.reasonText}>{amendment.reason}</dd>
        </div>
        {amendment.sites.map((site) => (
          <div key={site.siteId} className={styles.factRow}>
            <dt>{t('fields.siteDate', { site: `${site.code} ${site.name}` })}</dt>
            <dd>{site.effectiveOn ?? t('fields.noDate')}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Discards the draft with a reason (the shared reason dialog), then back to the list. */
function DiscardAmendment({
  studyId,
  amendmentId,
  number,
}: {
  studyId: number;
  amendmentId: number;
  number: string;
}) {
  const { t } = useTranslation('amendments');
  const modals = useModalStack();
  const navigate = useNavigate();
  const toast = useToast();
  const discard = useDiscardAmendment(studyId, amendmentId);

  async function submit(reason: string): Promise<string | null> {
    try {
      await discard.mutateAsync(reason);
    } catch (error) {
      return errorText(error);
    }
    toast(t('discard.done', { number }), 'success');
    navigate(generatePath(paths.amendments, { studyId: String(studyId) }));
    return null;
  }

  return (
    <>
      <Button variant="danger" size="sm" onClick={() => modals.open(DISCARD_MODAL)}>
        {t('discard.open')}
      </Button>
      <ReasonDialog
        name={DISCARD_MODAL}
        title={t('discard.title', { number })}
        description={t('discard.description')}
        reasonLabel={t('discard.reason')}
        confirmLabel={t('discard.submit')}
        tone="danger"
        onSubmit={submit}
      />
    </>
  );
}
