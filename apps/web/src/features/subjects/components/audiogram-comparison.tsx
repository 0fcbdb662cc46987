import type { OverviewResponse } from '@cdms/contract';
import {
  audiogramEarOf,
  audiogramLayout,
  audiogramPoints,
  type Language,
  orderVisitKeys,
  resolveVisit,
  type StudyDefinition,
} from '@cdms/study';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useReferencedForms } from '../api/forms.ts';
import { AudiogramChart, type AudiogramSeries, type Thresholds } from './audiogram.tsx';

/**
 * From the subject overview (issue 19 item 3): the audiograms of the first and the last visit whose
 * forms include the PTA form, overlaid — hearing before treatment and at the end (the first study's
 * definition has PTA at V1 and V2; a PTA saved at a later unscheduled visit, or added to a later
 * scheduled visit, is followed).
 */

export const AUDIOGRAM_COMPARISON_MODAL = 'audiogram-comparison';

/**
 * The first and last visits with the PTA form, when there are two: the scheduled visits that hold it,
 * and — once the overview is loaded — the subject's unscheduled visits whose PTA form was saved, in the
 * overview's order (by date).
 */
export function comparedPtaVisits(
  definition: StudyDefinition,
  overview?: Pick<OverviewResponse, 'unscheduledVisits' | 'visitDates' | 'matrix'>,
): [string, string] | null {
  const layout = audiogramLayout(definition);
  if (!layout) return null;
  const saved = (visitKey: string) => {
    const status = overview?.matrix[visitKey]?.[layout.form];
    return status === 'check' || status === 'alert';
  };
  const keys = overview
    ? orderVisitKeys(definition, overview.visitDates, overview.unscheduledVisits)
    : definition.visits.map((visit) => visit.key);
  const visits = keys.filter((visitKey) => {
    if (!resolveVisit(definition, visitKey)?.forms.includes(layout.form)) return false;
    return definition.visits.some((visit) => visit.key === visitKey) || saved(visitKey);
  });
  const first = visits[0];
  const last = visits.at(-1);
  return first && last && first !== last ? [first, last] : null;
}

export function AudiogramComparison({
  studyId,
  subjectPk,
  definition,
  language,
  overview,
}: {
  studyId: number;
  subjectPk: number;
  definition: StudyDefinition;
  language: Language;
  /** The subject's overview, for its unscheduled visits with a saved PTA form. */
  overview?: Pick<OverviewResponse, 'unscheduledVisits' | 'visitDates' | 'matrix'>;
}) {
  const { t } = useTranslation('subjects');
  const modals = useModalStack();
  const visits = comparedPtaVisits(definition, overview);
  if (!visits) return null;
  const label = (visitKey: string) => resolveVisit(definition, visitKey)?.label[language] ?? visitKey;
  return (
    <>
      <Button variant="secondary" onClick={() => modals.open(AUDIOGRAM_COMPARISON_MODAL)}>
        {t('audiogram.compare')}
      </Button>
      <Modal
        name={AUDIOGRAM_COMPARISON_MODAL}
        title={t('audiogram.compareTitle', { from: label(visits[0]), to: label(visits[1]) })}
        width="lg"
      >
        <ComparedAudiograms
          studyId={studyId}
          subjectPk={subjectPk}
          definition={definition}
          visits={visits}
          label={label}
        />
      </Modal>
    </>
  );
}

function ComparedAudiograms({
  studyId,
  subjectPk,
  definition,
  visits,
  label,
}: {
  studyId: number;
  subjectPk: number;
  definition: StudyDefinition;
  visits: [string, string];
  label: (visitKey: string) => string;
}) {
  const { t } = useTranslation('subjects');
  const layout = audiogramLayout(definition);
  const ear = layout?.treatedEar;
  const forms = useReferencedForms(studyId, subjectPk, [
    ...(layout
      ? [
          { visitKey: visits[0], formKey: layout.form },
          { visitKey: visits[1], formKey: layout.form },
        ]
      : []),
    ...(ear ? [{ visitKey: ear.visit, formKey: ear.form }] : []),
  ]);
  if (!layout) return null;
  if (forms.slice(0, 2).some((form) => form === undefined)) return <p>{t('loading')}</p>;
  const thresholdsOf = (values: Record<string, unknown> | undefined): Thresholds => {
    const points = audiogramPoints(layout, (itemKey) => values?.[itemKey]);
    return {
      air: new Map(points.air.map((point) => [point.hz, point.db])),
      bone: new Map(points.bone.map((point) => [point.hz, point.db])),
    };
  };
  const series: AudiogramSeries[] = visits.map((visitKey, index) => ({
    key: visitKey,
    label: label(visitKey),
    thresholds: thresholdsOf(forms[index]?.values),
  }));
  const earValue = ear ? forms[2]?.values[ear.item] : undefined;
  const recorded = series.some((entry) => entry.thresholds.air.size > 0 || entry.thresholds.bone.size > 0);
  return recorded ? (
    <AudiogramChart layout={layout} series={series} ear={audiogramEarOf(layout, earValue)} />
  ) : (
    <p>{t('audiogram.noneRecorded')}</p>
  );
}
