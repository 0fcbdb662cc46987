import { FORM_PHOTO_ACCEPT, FORM_PHOTO_MAX_BYTES, type FormPhoto } from '@cdms/contract';
import {
  getFormLayout,
  parsePhotoReference,
  parseTracing,
  serializeTracing,
  type Tracing,
  tracingAreaPercent,
  tracingDiameterPercent,
} from '@cdms/study';
import { type ReactNode, useCallback, useId, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useCrfForm, useItemValue, useSetItemValue } from '../../../components/crf-form/crf-form-context.tsx';
import type { ControlProps } from '../../../components/crf-form/item-controls.tsx';
import type { SubjectStore } from '../../../components/crf-form/subject-store.ts';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import {
  type DraftTracing,
  defaultLine,
  draftFromTracing,
  type OutlineKey,
  TracingTool,
  tracingFromDraft,
} from './tracing-tool.tsx';
import styles from './tympanic-photo.module.css';

// Issue 19 item 2: the eardrum photo item (upload, zoom, the tracing tool) and the tracing item's summary,
// handed to the generic renderer through `itemControl`. The photo's URL is the subject's photo route; the
// tracing is written to the form's `tracing` item as JSON text, so the engine fills the percents live and
// the save path stores, audits and versions it like any value.

export interface PhotoAddress {
  studyId: number;
  subjectPk: number;
  visitKey: string;
  formKey: string;
}

export function photoUrl(address: { studyId: number; subjectPk: number }, reference: unknown): string | null {
  const photo = parsePhotoReference(reference);
  return photo
    ? `/api/studies/${address.studyId}/subjects/${address.subjectPk}/photos/${photo.photoId}`
    : null;
}

async function uploadPhoto(address: PhotoAddress, file: File): Promise<FormPhoto> {
  const formData = new FormData();
  formData.append('photo', file);
  const { studyId, subjectPk, visitKey, formKey } = address;
  return apiRequest<FormPhoto>(
    `/api/studies/${studyId}/subjects/${subjectPk}/forms/${visitKey}/${formKey}/photos`,
    { method: 'POST', formData },
  );
}

const ZOOMS = [1, 1.5, 2, 3] as const;

/** The `itemControl` of the subject's form: photo and tracing items; undefined for every other type. */
export function tympanicPhotoControls(address: PhotoAddress): (props: ControlProps) => ReactNode {
  return (props) => {
    if (props.item.type === 'photo') return <PhotoItemControl address={address} {...props} />;
    if (props.item.type === 'tracing') return <TracingSummary {...props} />;
    return undefined;
  };
}

function useTracingItemKey(): string | null {
  const { definition, visitKey, formKey } = useCrfForm();
  const layout = getFormLayout(definition, visitKey, formKey);
  for (const place of layout?.items.values() ?? []) if (place.item.type === 'tracing') return place.item.key;
  return null;
}

function PhotoItemControl({
  address,
  id,
  value,
  disabled,
  onChange,
  describedBy,
}: ControlProps & { address: PhotoAddress }) {
  const { t } = useTranslation('subjects');
  const tracingKey = useTracingItemKey();
  const tracingValue = useItemValue({ itemKey: tracingKey ?? '' });
  const setTracing = useSetItemValue({ itemKey: tracingKey ?? '' });
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [zoom, setZoom] = useState<number>(1);
  const [aspect, setAspect] = useState<number | null>(() => parseTracing(tracingValue)?.aspect ?? null);
  const [draft, setDraft] = useState<DraftTracing>(() => draftFromTracing(parseTracing(tracingValue)));
  const [active, setActive] = useState<OutlineKey>('membrane');
  const src = photoUrl(address, value);
  const groupName = useId();

  const commit = useCallback(
    (next: DraftTracing, ratio: number | null) => {
      setDraft(next);
      if (ratio === null || tracingKey === null) return;
      const tracing = tracingFromDraft(next, ratio);
      setTracing(tracing ? serializeTracing(tracing) : null);
    },
    [setTracing, tracingKey],
  );

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    if (file.size > FORM_PHOTO_MAX_BYTES) {
      setProblem(t('photo.tooLarge', { megabytes: FORM_PHOTO_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    setBusy(true);
    try {
      const photo = await uploadPhoto(address, file);
      onChange(photo.reference);
      // A new photo starts a new tracing: the old one stays in the audit trail once saved.
      const empty: DraftTracing = {
        membrane: null,
        perforation: null,
        lines: { membrane: null, perforation: null },
      };
      setAspect(photo.width / photo.height);
      commit(empty, photo.width / photo.height);
      setZoom(1);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : t('photo.uploadFailed'));
    } finally {
      setBusy(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const shape = draft[active];
  const startShape = (kind: 'polygon' | 'ellipse') => {
    const size = active === 'membrane' ? 0.35 : 0.12;
    const next: DraftTracing = {
      ...draft,
      [active]:
        kind === 'polygon'
          ? { kind: 'polygon', points: [] }
          : { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: size / (aspect ?? 1), ry: size },
    };
    commit(next, aspect);
  };
  const tracing: Tracing | null = aspect === null ? null : tracingFromDraft(draft, aspect);
  const area = tracing ? tracingAreaPercent(tracing) : null;
  const diameter = tracing ? tracingDiameterPercent(tracing) : null;

  return (
    <div className={styles.photoItem} id={id} aria-describedby={describedBy}>
      {disabled ? null : (
        <div className={styles.toolbar}>
          <input
            ref={fileRef}
            type="file"
            accept={FORM_PHOTO_ACCEPT}
            className={styles.fileInput}
            aria-label={t('photo.choose')}
            data-testid="photo-file"
            onChange={(event) => void onFile(event.target.files?.[0])}
          />
          <button
            type="button"
            className={styles.button}
            disabled={busy}
            onClick={() => fileRef.current?.click()}
          >
            {busy ? t('photo.uploading') : src ? t('photo.replace') : t('photo.upload')}
          </button>
          <span className={styles.hint}>{t('photo.types')}</span>
        </div>
      )}
      <FormAlert message={problem} className={styles.problem} />
      {src ? (
        <>
          <div className={styles.toolbar}>
            <span className={styles.hint}>{t('photo.zoom')}</span>
            {ZOOMS.map((level) => (
              <button
                key={level}
                type="button"
                className={styles.zoomButton}
                aria-pressed={zoom === level}
                onClick={() => setZoom(level)}
              >
                {`${level}×`}
              </button>
            ))}
          </div>
          <div className={styles.viewport}>
            <div className={styles.stage} style={{ width: `${zoom * 100}%` }}>
              <img
                className={styles.photo}
                src={src}
                alt={t('photo.alt')}
                draggable={false}
                onLoad={(event) => {
                  const image = event.currentTarget;
                  if (image.naturalHeight > 0) setAspect(image.naturalWidth / image.naturalHeight);
                }}
              />
              {aspect !== null ? (
                <TracingTool
                  draft={draft}
                  aspect={aspect}
                  active={active}
                  readOnly={disabled}
                  onChange={(next) => commit(next, aspect)}
                />
              ) : null}
            </div>
          </div>
          {disabled ? null : (
            <div className={styles.tracingControls}>
              <fieldset className={styles.choice}>
                <legend className={styles.legend}>{t('photo.traceWhich')}</legend>
                {(['membrane', 'perforation'] as const).map((outline) => (
                  <label key={outline} className={styles.radio}>
                    <input
                      type="radio"
                      name={groupName}
                      checked={active === outline}
                      onChange={() => setActive(outline)}
                    />
                    <span className={styles.swatch} data-outline={outline} aria-hidden="true" />
                    {t(`photo.outline.${outline}`)}
                  </label>
                ))}
              </fieldset>
              <div className={styles.toolbar}>
                <button
                  type="button"
                  className={styles.button}
                  aria-pressed={shape?.kind === 'polygon'}
                  onClick={() => startShape('polygon')}
                >
                  {t('photo.polygon')}
                </button>
                <button
                  type="button"
                  className={styles.button}
                  aria-pressed={shape?.kind === 'ellipse'}
                  onClick={() => startShape('ellipse')}
                >
                  {t('photo.ellipse')}
                </button>
                <button
                  type="button"
                  className={styles.button}
                  aria-pressed={draft.lines[active] !== null}
                  onClick={() =>
                    commit(
                      {
                        ...draft,
                        lines: {
                          ...draft.lines,
                          [active]: draft.lines[active] ? null : defaultLine(active, draft),
                        },
                      },
                      aspect,
                    )
                  }
                >
                  {t('photo.diameterLine')}
                </button>
                <button
                  type="button"
                  className={styles.button}
                  disabled={!shape && !draft.lines[active]}
                  onClick={() =>
                    commit({ ...draft, [active]: null, lines: { ...draft.lines, [active]: null } }, aspect)
                  }
                >
                  {t('photo.clear')}
                </button>
              </div>
              <p className={styles.hint}>
                {draft.lines[active] ? `${t('photo.lineHelp')} ` : ''}
                {shape?.kind === 'polygon'
                  ? t('photo.polygonHelp', { count: shape.points.length })
                  : shape?.kind === 'ellipse'
                    ? t('photo.ellipseHelp')
                    : t('photo.startHelp')}
              </p>
            </div>
          )}
          <TracingNumbers area={area} diameter={diameter} />
        </>
      ) : disabled ? (
        <p className={styles.hint}>{t('photo.none')}</p>
      ) : null}
    </div>
  );
}

function TracingNumbers({ area, diameter }: { area: number | null; diameter: number | null }) {
  const { t } = useTranslation('subjects');
  const show = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} %`);
  return (
    <dl className={styles.numbers} aria-live="polite" data-testid="tracing-numbers">
      <div>
        <dt>{t('photo.areaPercent')}</dt>
        <dd>{show(area)}</dd>
      </div>
      <div>
        <dt>{t('photo.diameterPercent')}</dt>
        <dd>{show(diameter)}</dd>
      </div>
    </dl>
  );
}

/** The tracing item's row: what is drawn, in words (the drawing itself is on the photo above). */
function TracingSummary({ id, value }: ControlProps) {
  const { t } = useTranslation('subjects');
  const tracing = parseTracing(value);
  const describe = (outline: OutlineKey) => {
    const shape = tracing?.[outline];
    if (!shape) return t('photo.summary.none');
    return shape.kind === 'polygon'
      ? t('photo.summary.polygon', { count: shape.points.length })
      : t('photo.summary.ellipse');
  };
  const drawnLines =
    tracing?.membraneDiameter && tracing.perforationDiameter ? ` · ${t('photo.summary.lines')}` : '';
  return (
    <output id={id} className={styles.summary}>
      {tracing
        ? `${t('photo.outline.membrane')}: ${describe('membrane')} · ${t('photo.outline.perforation')}: ${describe('perforation')}${drawnLines}`
        : t('photo.summary.empty')}
    </output>
  );
}

/** A photo with its tracing drawn, read-only (the V2 baseline beside a follow-up visit). */
export function TracedPhoto({
  address,
  reference,
  tracingValue,
  caption,
}: {
  address: { studyId: number; subjectPk: number };
  reference: unknown;
  tracingValue: unknown;
  caption: string;
}) {
  const { t } = useTranslation('subjects');
  const src = photoUrl(address, reference);
  const tracing = parseTracing(tracingValue);
  const [aspect, setAspect] = useState<number | null>(tracing?.aspect ?? null);
  if (!src) return null;
  return (
    <figure className={styles.baseline}>
      <figcaption className={styles.legend}>{caption}</figcaption>
      <div className={styles.stage}>
        <img
          className={styles.photo}
          src={src}
          alt={t('photo.baselineAlt')}
          onLoad={(event) => {
            const image = event.currentTarget;
            if (image.naturalHeight > 0) setAspect(image.naturalWidth / image.naturalHeight);
          }}
        />
        {aspect !== null ? (
          <TracingTool
            draft={draftFromTracing(tracing)}
            aspect={aspect}
            active="membrane"
            readOnly
            onChange={() => undefined}
          />
        ) : null}
      </div>
      <TracingNumbers
        area={tracing ? tracingAreaPercent(tracing) : null}
        diameter={tracing ? tracingDiameterPercent(tracing) : null}
      />
    </figure>
  );
}

/**
 * A follow-up visit's photo beside the baseline's (V4–V6 beside V2): the baseline is the other visit's
 * form of the same kind that this form's rules read, its values already in the store.
 */
export function BaselinePhotoComparison({
  address,
  store,
  baseline,
  visitLabel,
  baselineLabel,
}: {
  address: PhotoAddress;
  store: SubjectStore;
  baseline: { visitKey: string; formKey: string };
  visitLabel: string;
  baselineLabel: string;
}) {
  const { t } = useTranslation('subjects');
  const data = useSyncExternalStore(store.subscribe, store.getData, store.getData);
  const before = data[baseline.visitKey]?.[baseline.formKey];
  const now = data[address.visitKey]?.[address.formKey];
  if (!parsePhotoReference(before?.photo)) return null;
  return (
    <section
      className={styles.baselinePanel}
      aria-labelledby={`${address.visitKey}-baseline-title`}
      data-testid="baseline-photos"
    >
      <h2 id={`${address.visitKey}-baseline-title`} className={styles.baselineTitle}>
        {t('photo.comparisonTitle', { baseline: baselineLabel })}
      </h2>
      <TracedPhoto
        address={address}
        reference={before?.photo}
        tracingValue={before?.tracing}
        caption={baselineLabel}
      />
      {parsePhotoReference(now?.photo) ? (
        <TracedPhoto
          address={address}
          reference={now?.photo}
          tracingValue={now?.tracing}
          caption={visitLabel}
        />
      ) : (
        <p className={styles.hint}>{t('photo.noCurrent')}</p>
      )}
    </section>
  );
}
