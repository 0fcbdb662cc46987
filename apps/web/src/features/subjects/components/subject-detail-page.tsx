import { getFormLayout, type Language, resolveVisit } from '@cdms/study';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { paths } from '../../../lib/paths.ts';
import { useStudyDefinition } from '../../../lib/study-definition.ts';
import {
  detailUrl,
  FORM_PARAM,
  MENU_TYPE_PARAM,
  overviewUrl,
  readId,
  SUBJECT_ID_PARAM,
  SUBJECT_PK_PARAM,
  subjectListUrl,
  VISIT_PARAM,
} from '../../../lib/subject-urls.ts';
import { useFormData } from '../api/forms.ts';
import { useSubjectOverview } from '../api/subjects.ts';
import { DetailRail } from './detail-rail.tsx';
import { FormEditor } from './form-editor.tsx';
import styles from './subject-detail.module.css';
import { SubjectHeader } from './subject-header.tsx';

/** `/subject-list/subject/subject-detail/:studyId`: the rail of visits and forms, and the chosen form. */
export function SubjectDetailPage() {
  const studyId = readId(useParams().studyId);
  const [params] = useSearchParams();
  const subjectPk = readId(params.get(SUBJECT_PK_PARAM));
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  if (subjectPk === null) {
    return <Navigate to={subjectListUrl(studyId, params.get(MENU_TYPE_PARAM))} replace />;
  }
  return <SubjectDetail studyId={studyId} subjectPk={subjectPk} />;
}

function SubjectDetail({ studyId, subjectPk }: { studyId: number; subjectPk: number }) {
  const { t, i18n } = useTranslation('subjects');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const headingId = useId();
  const menuType = params.get(MENU_TYPE_PARAM);
  const definition = useStudyDefinition(studyId);
  // Spec §2: depth-1 (visit) and depth-2 (form) default to the registration step (the study's
  // `registration` role), else the first visit's first form; nothing is loaded before the definition.
  const studyVisits = definition.data?.definition.visits ?? [];
  const registration = definition.data?.definition.roles?.registration;
  const visitKey = params.get(VISIT_PARAM) || (registration?.visit ?? studyVisits[0]?.key ?? '');
  const formKey = params.get(FORM_PARAM) || (registration?.form ?? studyVisits[0]?.forms[0] ?? '');
  const subjectRef = { id: subjectPk, subjectId: params.get(SUBJECT_ID_PARAM) ?? '' };
  const formUrl = (visit: string, form: string) => detailUrl(studyId, subjectRef, visit, form, menuType);

  const layout = definition.data ? getFormLayout(definition.data.definition, visitKey, formKey) : undefined;
  const address = { studyId, subjectPk, visitKey, formKey };
  const form = useFormData(address);
  // The rail lists the subject's unscheduled visits (the overview's list, usually cached already).
  const overview = useSubjectOverview(studyId, subjectPk);

  // A scheduled visit or one of the subject's unscheduled visits (`unscheduled-<n>`).
  const visit = definition.data ? resolveVisit(definition.data.definition, visitKey) : undefined;
  const visitForms = visit?.forms ?? [];
  const position = visitForms.indexOf(formKey);
  const previous = position > 0 ? visitForms[position - 1] : undefined;
  const next = position >= 0 && position < visitForms.length - 1 ? visitForms[position + 1] : undefined;

  const navigation = (
    <>
      <Link to={overviewUrl(studyId, subjectRef, menuType)} className={styles.toolLink}>
        {t('detail.board')}
      </Link>
      {/* At the first or last form the buttons do nothing (spec §2): shown disabled. */}
      <Button
        variant="secondary"
        size="sm"
        disabled={!previous}
        onClick={() => previous && void navigate(formUrl(visitKey, previous))}
      >
        ‹ {t('detail.previous')}
      </Button>
      <Button
        variant="secondary"
        size="sm"
        disabled={!next}
        onClick={() => next && void navigate(formUrl(visitKey, next))}
      >
        {t('detail.next')} ›
      </Button>
    </>
  );

  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <h1 id={headingId} className={styles.visuallyHidden}>
        {layout
          ? `${visit?.label[language] ?? visitKey} · ${layout.form.label[language]}`
          : t('overview.title')}
      </h1>
      {form.data ? <SubjectHeader subject={form.data.subject} /> : null}
      <div className={styles.layout}>
        {definition.data ? (
          <DetailRail
            // A visit of another category (a routing link, say) opens the rail on that category.
            key={visit?.group ?? 'none'}
            definition={definition.data.definition}
            language={language}
            visitKey={visitKey}
            formKey={formKey}
            formUrl={formUrl}
            unscheduledVisitKeys={overview.data?.unscheduledVisits.map((entry) => entry.visitKey) ?? []}
          />
        ) : (
          <div className={styles.rail} />
        )}
        <div className={styles.main}>
          {definition.isPending || (layout && form.isPending) ? (
            <p className={styles.state}>{t('loading')}</p>
          ) : definition.isError ? (
            <p className={styles.state} role="alert">
              {definition.error.message}
            </p>
          ) : !layout ? (
            <p className={styles.state}>{t('detail.formNotInVisit')}</p>
          ) : form.isError ? (
            <div className={styles.state} role="alert">
              <p>{form.error.message || t('loadError')}</p>
              <Button variant="secondary" onClick={() => void form.refetch()}>
                {t('retry')}
              </Button>
            </div>
          ) : form.data && definition.data ? (
            <FormEditor
              key={`${subjectPk}/${visitKey}/${formKey}`}
              address={address}
              definition={definition.data.definition}
              layout={layout}
              formData={form.data}
              language={language}
              visitLabel={visit?.label[language] ?? visitKey}
              formUrl={formUrl}
              navigation={navigation}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}
