import type { Text } from '../http/language.ts';

/**
 * Why a restore refused an archive, before writing anything: said in Korean and English (the
 * command prints both), with what to do about it.
 */
export type RestoreRefusalCode =
  | 'not_an_archive'
  | 'not_a_backup'
  | 'newer_format'
  | 'part_missing'
  | 'part_damaged'
  | 'newer_version'
  | 'other_database_kind'
  | 'target_not_empty'
  | 'checkpoints_exist';

type Params = Record<string, string>;

const messages: Record<RestoreRefusalCode, (params: Params) => Text> = {
  not_an_archive: (p) => ({
    ko: `온전한 백업 파일이 아닙니다: ${p.file} (${p.detail}). 파일이 잘렸거나 다른 파일입니다.`,
    en: `${p.file} is not a whole backup archive (${p.detail}): it was cut short or is another kind of file.`,
  }),
  not_a_backup: (p) => ({
    ko: `${p.file}에는 CDMS 백업 목록(manifest.json)이 없거나 읽을 수 없습니다: ${p.detail}`,
    en: `${p.file} holds no readable CDMS backup manifest (manifest.json): ${p.detail}`,
  }),
  newer_format: (p) => ({
    ko: `이 백업은 더 새로운 백업 형식(${p.format})으로 쓰였습니다. CDMS ${p.version} 이상으로 복원하십시오.`,
    en: `This backup was written in a newer backup format (${p.format}): restore it with CDMS ${p.version} or newer.`,
  }),
  part_missing: (p) => ({
    ko: `백업이 손상되었습니다: 목록에 있는 부분 ${p.part} 파일이 없거나 크기가 다릅니다. 아무것도 복원하지 않았습니다.`,
    en: `The backup is damaged: the part ${p.part} named in its manifest is missing or has another size. Nothing was restored.`,
  }),
  part_damaged: (p) => ({
    ko: `백업이 손상되었습니다: ${p.part}의 SHA-256이 목록과 다릅니다(목록 ${p.expected}, 실제 ${p.actual}). 아무것도 복원하지 않았습니다.`,
    en: `The backup is damaged: the SHA-256 of ${p.part} differs from its manifest (manifest ${p.expected}, file ${p.actual}). Nothing was restored.`,
  }),
  newer_version: (p) => ({
    ko: `이 백업은 더 새로운 CDMS(${p.version})가 썼습니다. 이 버전이 모르는 마이그레이션이 있습니다: ${p.migration}. CDMS ${p.version} 이상을 설치한 뒤 복원하십시오.`,
    en: `This backup was written by a newer CDMS (${p.version}): its database has the migration ${p.migration}, which this version does not know. Install CDMS ${p.version} or newer, then restore.`,
  }),
  other_database_kind: (p) => ({
    ko: `이 백업은 ${p.archive} 데이터베이스의 것이고, 복원 대상은 ${p.target}입니다. ${p.archive === 'PostgreSQL' ? 'DATABASE_URL을 설정하고' : 'DATABASE_URL 없이 DATA_DIR로'} 복원하십시오.`,
    en: `This backup is of a ${p.archive} database and the target is ${p.target}: restore it ${p.archive === 'PostgreSQL' ? 'with DATABASE_URL set' : 'into DATA_DIR, without DATABASE_URL'}.`,
  }),
  target_not_empty: (p) => ({
    ko: `복원 대상이 비어 있지 않습니다(${p.target}). 복원은 새로 설치한 빈 데이터베이스에만 합니다.`,
    en: `The target is not empty (${p.target}): a backup is restored only into a new, empty install.`,
  }),
  checkpoints_exist: (p) => ({
    ko: `감사 체크포인트 파일이 이미 있습니다: ${p.file}. 복원은 빈 설치에만 합니다: 파일을 옮기거나 AUDIT_CHECKPOINT_FILE로 다른 경로를 지정하십시오.`,
    en: `The audit checkpoint file ${p.file} already exists: a backup is restored only into an empty install. Move the file away or point AUDIT_CHECKPOINT_FILE elsewhere.`,
  }),
};

export class RestoreRefusal extends Error {
  readonly code: RestoreRefusalCode;
  readonly text: Text;

  constructor(code: RestoreRefusalCode, params: Params = {}) {
    const text = messages[code](params);
    super(text.en);
    this.name = 'RestoreRefusal';
    this.code = code;
    this.text = text;
  }
}
