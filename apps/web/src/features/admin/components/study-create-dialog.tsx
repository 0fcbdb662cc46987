import {
  createStudyRequestSchema,
  defaultRandomizationNumberFormat,
  defaultScreeningNumberFormat,
  formatNumber,
  numberFormatProblem,
  type StudyKind,
  studyKinds,
} from '@cdms/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateStudy } from '../api/create-study.ts';
import { useUsers } from '../api/get-users.ts';
import { pathErrorKeys } from '../lib/field-errors.ts';
import { roleNeedsSites } from '../lib/membership-sites.ts';
import { AdminDialog, FormActions } from './admin-dialog.tsx';
import styles from './admin-ui.module.css';
import { Field, TextField } from './form-field.tsx';
import { type MemberDraft, MemberRows, type SiteDraft, SiteRows } from './study-create-rows.tsx';

/**
 * A new study (issue 45): it starts in design, the administrator who creates it its first ADMIN.
 * With it, optionally: its number formats, randomization on or off, its participating sites and
 * its first members (or later, on their pages). Its design is uploaded from the study list, its
 * allocation list made on the randomization page.
 */
export function StudyCreateDialog({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('admin');
  const createStudy = useCreateStudy();
  const [code, setCode] = useState('');
  const [protocolNumber, setProtocolNumber] = useState('');
  const [titleKo, setTitleKo] = useState('');
  const [titleEn, setTitleEn] = useState('');
  const [sponsor, setSponsor] = useState('');
  const [kind, setKind] = useState<StudyKind>('device');
  const [content, setContent] = useState('');
  const [screeningNumberFormat, setScreeningNumberFormat] = useState(defaultScreeningNumberFormat);
  const [randomizationEnabled, setRandomizationEnabled] = useState(true);
  const [randomizationNumberFormat, setRandomizationNumberFormat] = useState(
    defaultRandomizationNumberFormat,
  );
  const [sites, setSites] = useState<SiteDraft[]>([]);
  const [members, setMembers] = useState<MemberDraft[]>([]);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const users = useUsers();
  const siteCodes = [...new Set(sites.map((site) => site.code.trim()).filter((code) => code !== ''))];

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createStudyRequestSchema.safeParse({
      code,
      protocolNumber,
      titleKo,
      titleEn,
      sponsor,
      kind,
      content,
      screeningNumberFormat,
      randomizationEnabled,
      randomizationNumberFormat,
      sites: sites.map(({ code, name, institutionNumber }) => ({ code, name, institutionNumber })),
      // A member is sent with the sites its checkboxes show: those still listed, for a site role.
      members: members.map((member) => ({
        email: member.email,
        role: member.role,
        siteCodes: roleNeedsSites(member.role)
          ? member.siteCodes.filter((siteCode) => siteCodes.includes(siteCode))
          : [],
      })),
    });
    const found: Record<string, string | undefined> = parsed.success ? {} : pathErrorKeys(parsed.error);
    members.forEach((member, index) => {
      if (member.email === '') found[`members.${index}.email`] = 'validation.userRequired';
      const chosen = member.siteCodes.filter((siteCode) => siteCodes.includes(siteCode));
      if (roleNeedsSites(member.role) && chosen.length === 0)
        found[`members.${index}.siteCodes`] ??= 'validation.sitesRequired';
    });
    setErrors(found);
    if (!parsed.success || Object.values(found).some(Boolean)) return;
    createStudy.mutate(parsed.data, { onSuccess: () => onOpenChange(false) });
  }

  /** The format's first number at site 01, or nothing while the format is not valid. */
  const example = (format: string) =>
    numberFormatProblem(format.trim()) === null
      ? t('studies.form.formatExample', { example: formatNumber(format.trim(), '01', 1) })
      : undefined;

  return (
    <AdminDialog
      open
      onOpenChange={onOpenChange}
      title={t('studies.form.createTitle')}
      description={t('studies.form.createDescription')}
      wide
    >
      <form className={styles.form} onSubmit={submit} noValidate>
        <div className={styles.fieldRow}>
          <TextField
            label={t('studies.form.code')}
            value={code}
            onChange={setCode}
            error={errors.code}
            hint={t('studies.form.codeHint')}
            autoComplete="off"
            maxLength={20}
          />
          <TextField
            label={t('studies.form.protocolNumber')}
            value={protocolNumber}
            onChange={setProtocolNumber}
            error={errors.protocolNumber}
            autoComplete="off"
            maxLength={50}
          />
        </div>
        <TextField
          label={t('studies.form.titleKo')}
          value={titleKo}
          onChange={setTitleKo}
          error={errors.titleKo}
          autoComplete="off"
          maxLength={300}
        />
        <TextField
          label={t('studies.form.titleEn')}
          value={titleEn}
          onChange={setTitleEn}
          error={errors.titleEn}
          autoComplete="off"
          maxLength={300}
        />
        <div className={styles.fieldRow}>
          <TextField
            label={t('studies.form.sponsor')}
            value={sponsor}
            onChange={setSponsor}
            error={errors.sponsor}
            autoComplete="off"
            maxLength={200}
          />
          <Field label={t('studies.form.kind')} error={errors.kind}>
            {({ inputId, describedBy }) => (
              <select
                id={inputId}
                className={styles.select}
                value={kind}
                aria-describedby={describedBy}
                onChange={(event) => setKind(event.target.value as StudyKind)}
              >
                {studyKinds.map((option) => (
                  <option key={option} value={option}>
                    {t(`studies.kinds.${option}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <TextField
          label={t('studies.form.content')}
          value={content}
          onChange={setContent}
          error={errors.content}
          hint={t('studies.form.contentHint')}
          autoComplete="off"
          maxLength={2000}
        />
        <fieldset className={styles.field}>
          <legend className={styles.label}>{t('studies.form.numbering')}</legend>
          <p className={styles.hint}>{t('studies.form.formatHint')}</p>
          <div className={styles.fieldRow}>
            <TextField
              label={t('studies.form.screeningFormat')}
              value={screeningNumberFormat}
              onChange={setScreeningNumberFormat}
              error={errors.screeningNumberFormat}
              {...optionalHint(example(screeningNumberFormat))}
              autoComplete="off"
              maxLength={30}
            />
            <Field
              label={t('studies.form.randomization')}
              hint={t(
                randomizationEnabled ? 'studies.form.randomizationHint' : 'studies.form.randomizationOffHint',
              )}
            >
              {({ inputId, describedBy }) => (
                <select
                  id={inputId}
                  className={styles.select}
                  value={randomizationEnabled ? 'on' : 'off'}
                  aria-describedby={describedBy}
                  onChange={(event) => setRandomizationEnabled(event.target.value === 'on')}
                >
                  <option value="on">{t('studies.form.randomizationOptions.on')}</option>
                  <option value="off">{t('studies.form.randomizationOptions.off')}</option>
                </select>
              )}
            </Field>
          </div>
          {randomizationEnabled && (
            <div className={styles.fieldRow}>
              <TextField
                label={t('studies.form.randomizationFormat')}
                value={randomizationNumberFormat}
                onChange={setRandomizationNumberFormat}
                error={errors.randomizationNumberFormat}
                {...optionalHint(example(randomizationNumberFormat))}
                autoComplete="off"
                maxLength={30}
              />
            </div>
          )}
        </fieldset>
        <SiteRows sites={sites} errors={errors} onChange={setSites} />
        <MemberRows
          members={members}
          users={users.data ?? []}
          siteCodes={siteCodes}
          errors={errors}
          onChange={setMembers}
        />
        <FormActions
          error={createStudy.error}
          pending={createStudy.isPending}
          onCancel={() => onOpenChange(false)}
          submitLabel={t('studies.form.create')}
        />
      </form>
    </AdminDialog>
  );
}

/** `hint` only when there is one (the field's prop is optional, not undefined). */
function optionalHint(hint: string | undefined): { hint?: string } {
  return hint === undefined ? {} : { hint };
}
