import {
  type GroupVisibleRole,
  groupVisibleRoleChoices,
  type RandomizationStatus,
  type SiteSummary,
  type StudyMembership,
} from '@cdms/contract';
import { type ChangeEvent, type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { PageState, StudyAbilityPage } from '../../../components/study-ability-page.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import {
  useGenerateLists,
  useImportList,
  useRandomizationStatus,
  useUpdateSettings,
} from '../api/randomization.ts';
import styles from './randomization-page.module.css';

/**
 * `/randomization/:studyId`: the allocation lists of the study for its keepers (DM, ADMIN): use per
 * site (never the groups), the group-visibility setting, generating lists and importing one from CSV.
 */
export function RandomizationPage() {
  return (
    <StudyAbilityPage ability="randomization.manage" namespace="randomization">
      {(studyId, membership) => <RandomizationLists studyId={studyId} membership={membership} />}
    </StudyAbilityPage>
  );
}

function RandomizationLists({ studyId, membership }: { studyId: number; membership: StudyMembership }) {
  const { t } = useTranslation('randomization');
  const status = useRandomizationStatus(studyId, true);
  const siteNames = new Map(membership.sites.map((site) => [site.id, site]));
  if (status.isPending) return <PageState>{t('page.loading')}</PageState>;
  if (status.isError)
    return (
      <PageState role="alert">
        <p>{errorText(status.error)}</p>
        <Button variant="secondary" onClick={() => void status.refetch()}>
          {t('page.retry')}
        </Button>
      </PageState>
    );
  return (
    <>
      <StatusTable status={status.data} sites={siteNames} />
      <SettingsCard studyId={studyId} status={status.data} />
      <div className={styles.columns}>
        <GenerateCard studyId={studyId} status={status.data} sites={siteNames} />
        <ImportCard studyId={studyId} />
      </div>
    </>
  );
}

type Site = RandomizationStatus['sites'][number];

function siteLabel(site: Site, sites: ReadonlyMap<number, SiteSummary>) {
  const name = sites.get(site.siteId)?.name;
  return name ? `${site.siteCode} · ${name}` : site.siteCode;
}

function StatusTable({
  status,
  sites,
}: {
  status: RandomizationStatus;
  sites: ReadonlyMap<number, SiteSummary>;
}) {
  const { t } = useTranslation('randomization');
  // A site without a list says so in the slots column; its used and remaining are a dash.
  const count = (site: Site, value: number) => (site.total === 0 ? '–' : value);
  const columns: DataTableColumn<Site>[] = [
    {
      id: 'site',
      header: t('page.status.site'),
      rowHeader: true,
      hideable: false,
      cell: (site) => siteLabel(site, sites),
    },
    {
      id: 'institution',
      header: t('page.status.institution'),
      hideable: false,
      cell: (s) => s.institutionNumber,
    },
    {
      id: 'total',
      header: t('page.status.total'),
      numeric: true,
      hideable: false,
      cell: (site) =>
        site.total === 0 ? <span className={styles.noList}>{t('page.status.noList')}</span> : site.total,
    },
    {
      id: 'used',
      header: t('page.status.used'),
      numeric: true,
      hideable: false,
      cell: (s) => count(s, s.used),
    },
    {
      id: 'remaining',
      header: t('page.status.remaining'),
      numeric: true,
      hideable: false,
      cell: (site) =>
        site.total > 0 && site.remaining === 0 ? (
          <span className={styles.low}>{site.remaining}</span>
        ) : (
          count(site, site.remaining)
        ),
    },
  ];
  // The table's frame is the region named by the title; the card around it is not a second one.
  return (
    <div className={styles.card}>
      <h2 className={styles.cardTitle}>{t('page.status.title')}</h2>
      <DataTable<Site>
        id="randomization-status"
        label={t('page.status.title')}
        columns={columns}
        rows={status.sites}
        rowKey={(site) => String(site.siteId)}
        emptyMessage={t('page.status.empty')}
      />
    </div>
  );
}

function SettingsCard({ studyId, status }: { studyId: number; status: RandomizationStatus }) {
  const { t } = useTranslation('randomization');
  const toast = useToast();
  const update = useUpdateSettings(studyId);
  const hintId = useId();
  const [chosen, setChosen] = useState<ReadonlySet<GroupVisibleRole> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const selected = chosen ?? new Set(status.groupVisibleRoles);
  const changed =
    selected.size !== status.groupVisibleRoles.length ||
    status.groupVisibleRoles.some((role) => !selected.has(role));

  function toggle(role: GroupVisibleRole, on: boolean) {
    const next = new Set(selected);
    if (on) next.add(role);
    else next.delete(role);
    setChosen(next);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await update.mutateAsync({
        groupVisibleRoles: groupVisibleRoleChoices.filter((role) => selected.has(role)),
      });
      setChosen(null);
      toast(t('page.settings.saved'), 'success');
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  return (
    <Card title={t('page.settings.title')}>
      <form onSubmit={(event) => void save(event)} aria-describedby={hintId}>
        <fieldset className={styles.roles}>
          <legend>{t('page.settings.rolesLegend')}</legend>
          {groupVisibleRoleChoices.map((role) => (
            <label key={role} className={styles.toggle}>
              <input
                type="checkbox"
                checked={selected.has(role)}
                disabled={update.isPending}
                onChange={(event) => toggle(role, event.target.checked)}
              />
              <span>{t(`page.settings.role.${role}`)}</span>
            </label>
          ))}
        </fieldset>
        <p className={styles.hint}>
          {status.showGroup ? t('page.settings.inForms') : t('page.settings.notInForms')}
        </p>
        <p id={hintId} className={styles.hint}>
          {t('page.settings.hint')}
        </p>
        <FormAlert message={error} className={styles.error} />
        <div className={styles.actions}>
          <Button type="submit" disabled={!changed || update.isPending}>
            {t('page.settings.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function GenerateCard({
  studyId,
  status,
  sites,
}: {
  studyId: number;
  status: RandomizationStatus;
  sites: ReadonlyMap<number, SiteSummary>;
}) {
  const { t } = useTranslation('randomization');
  const toast = useToast();
  const generate = useGenerateLists(studyId);
  const withoutList = status.sites.filter((site) => site.total === 0).map((site) => site.siteId);
  // Every site without a list is chosen until the user says otherwise.
  const [chosen, setChosen] = useState<ReadonlySet<number> | null>(null);
  const selected = chosen ?? new Set(withoutList);
  const [perSite, setPerSite] = useState('');
  const [seed, setSeed] = useState('');
  const [problems, setProblems] = useState<{ sites?: string; perSite?: string; seed?: string }>({});
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const siteIds = withoutList.filter((id) => selected.has(id));
    const count = Number(perSite);
    const found = {
      ...(siteIds.length === 0 ? { sites: t('page.generate.noSite') } : {}),
      ...(!/^\d+$/.test(perSite.trim()) || count < 1 || count > 999
        ? { perSite: t('page.generate.badPerSite') }
        : {}),
      ...(seed.trim() === '' ? { seed: t('page.generate.badSeed') } : {}),
    };
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    try {
      await generate.mutateAsync({ perSite: count, seed: seed.trim(), siteIds });
      setChosen(null);
      setSeed('');
      toast(t('page.generate.done'), 'success');
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  return (
    <Card title={t('page.generate.title')}>
      <p className={styles.hint}>{t('page.generate.hint')}</p>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>{t('page.generate.sites')}</legend>
          {status.sites.map((site) => {
            const hasList = site.total > 0;
            return (
              <label key={site.siteId} className={styles.checkbox} data-disabled={hasList || undefined}>
                <input
                  type="checkbox"
                  disabled={hasList}
                  checked={!hasList && selected.has(site.siteId)}
                  onChange={(event) => {
                    const next = new Set(selected);
                    if (event.target.checked) next.add(site.siteId);
                    else next.delete(site.siteId);
                    setChosen(next);
                  }}
                />
                <span>
                  {siteLabel(site, sites)}
                  {hasList ? <span className={styles.muted}> ({t('page.generate.hasList')})</span> : null}
                </span>
              </label>
            );
          })}
          {withoutList.length === 0 ? <p className={styles.hint}>{t('page.generate.allHaveLists')}</p> : null}
          {problems.sites ? <p className={styles.fieldError}>{problems.sites}</p> : null}
        </fieldset>
        <div className={styles.row}>
          <TextField
            label={t('page.generate.perSite')}
            inputMode="numeric"
            value={perSite}
            onChange={(event) => setPerSite(event.target.value)}
            hint={t('page.generate.perSiteHint')}
            error={problems.perSite}
          />
          <TextField
            label={t('page.generate.seed')}
            value={seed}
            autoComplete="off"
            maxLength={100}
            onChange={(event) => setSeed(event.target.value)}
            error={problems.seed}
          />
        </div>
        <FormAlert message={error} className={styles.error} />
        <div className={styles.actions}>
          <Button type="submit" disabled={generate.isPending || withoutList.length === 0}>
            {generate.isPending ? t('page.generate.pending') : t('page.generate.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function ImportCard({ studyId }: { studyId: number }) {
  const { t } = useTranslation('randomization');
  const toast = useToast();
  const importList = useImportList(studyId);
  const csvId = useId();
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again reads it again
    if (!file) return;
    setCsv(await file.text());
    setFileName(file.name);
    setError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (csv.trim() === '') {
      setError(t('page.import.empty'));
      return;
    }
    setError(null);
    try {
      await importList.mutateAsync(csv);
      setCsv('');
      setFileName(null);
      toast(t('page.import.done'), 'success');
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  return (
    <Card title={t('page.import.title')}>
      <p className={styles.hint}>{t('page.import.hint')}</p>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.fileRow}>
          {/* The native file input's own text is in the browser's language: a labelled button instead. */}
          <label className={styles.fileButton}>
            <input
              type="file"
              className={styles.fileInput}
              accept=".csv,text/csv,text/plain"
              onChange={(event) => void readFile(event)}
            />
            {t('page.import.file')}
          </label>
          {fileName ? <span className={styles.muted}>{fileName}</span> : null}
        </div>
        <label htmlFor={csvId} className={styles.legend}>
          {t('page.import.csv')}
        </label>
        <textarea
          id={csvId}
          className={styles.textarea}
          rows={8}
          spellCheck={false}
          placeholder={'institution,sequence,group\n01,1,treatment\n01,2,control'}
          value={csv}
          onChange={(event) => setCsv(event.target.value)}
        />
        <FormAlert message={error} className={styles.error} />
        <div className={styles.actions}>
          <Button type="submit" disabled={importList.isPending}>
            {importList.isPending ? t('page.import.pending') : t('page.import.submit')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** One of the page's cards: a section named by its heading, so it is listed as a region. */
function Card({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.cardTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}
