import { isParticle, withParticle } from './korean-particles.ts';
import type { Language, Text } from './language.ts';

/**
 * The message of every API error code, in Korean and English. Codes are stable (clients may branch
 * on them); messages are for people. `{name}` placeholders are filled from the error's params;
 * `{name|은/는}` (Korean only) adds the particle the filled-in word takes (korean-particles.ts), so
 * no message writes "은(는)". error-messages.test.ts holds every server text to that.
 */
export const errorMessages = {
  not_found: { ko: '요청한 리소스를 찾을 수 없습니다.', en: 'The requested resource was not found.' },
  route_not_found: {
    ko: 'API 경로를 찾을 수 없습니다: {method} {path}',
    en: 'No API route matches {method} {path}.',
  },
  validation_failed: {
    ko: '요청 값이 올바르지 않습니다.',
    en: 'The request is invalid.',
  },
  malformed_body: {
    ko: '요청 본문을 읽을 수 없습니다. JSON 형식을 확인하세요.',
    en: 'The request body could not be read. Check that it is valid JSON.',
  },
  malformed_url: {
    ko: '요청 주소를 읽을 수 없습니다. 주소의 인코딩을 확인하세요.',
    en: 'The request address could not be read. Check its encoding.',
  },
  invalid_text: {
    ko: '허용되지 않는 문자가 있습니다(NUL 문자 또는 올바르지 않은 유니코드/UTF-8). 입력한 내용을 확인하세요.',
    en: 'The request contains characters that are not allowed (NUL, or invalid Unicode or UTF-8). Check what was entered.',
  },
  unsupported_charset: {
    ko: 'JSON 요청 본문은 UTF-8로만 보낼 수 있습니다.',
    en: 'JSON request bodies are accepted only as UTF-8.',
  },
  body_too_deep: {
    ko: '요청 본문의 중첩이 너무 깊습니다.',
    en: 'The request body is nested too deeply.',
  },
  body_not_allowed: {
    ko: '이 요청에는 본문을 보낼 수 없습니다.',
    en: 'This request does not take a body.',
  },
  upload_incomplete: {
    ko: '업로드가 완료되지 않았습니다. 파일을 다시 올려 주세요.',
    en: 'The upload was incomplete. Please upload the file again.',
  },
  headers_too_large: {
    ko: '요청 주소나 헤더가 너무 깁니다.',
    en: 'The request address or headers are too long.',
  },
  malformed_request: {
    ko: '요청을 읽을 수 없습니다.',
    en: 'The request could not be read.',
  },
  request_timeout: {
    ko: '요청이 제시간에 도착하지 않았습니다. 다시 시도하세요.',
    en: 'The request did not arrive in time. Please try again.',
  },
  not_ready: {
    ko: '서버가 아직 요청을 처리할 준비가 되지 않았습니다. 잠시 후 다시 시도하세요.',
    en: 'The server is not ready to serve requests. Please try again shortly.',
  },
  unsupported_media_type: {
    ko: '지원하지 않는 콘텐츠 형식입니다.',
    en: 'The content type is not supported.',
  },
  payload_too_large: { ko: '요청이 너무 큽니다.', en: 'The request is too large.' },
  method_not_allowed: { ko: '허용되지 않는 요청 방식입니다.', en: 'This method is not allowed here.' },
  too_many_requests: {
    ko: '요청이 너무 많습니다. 잠시 후 다시 시도하세요.',
    en: 'Too many requests. Please try again shortly.',
  },
  unauthenticated: {
    ko: '로그인이 필요합니다. 다시 로그인해 주세요.',
    en: 'You need to log in. Please log in again.',
  },
  csrf_failed: {
    ko: '요청을 확인할 수 없습니다(CSRF). 페이지를 새로고침한 뒤 다시 시도하세요.',
    en: 'The request could not be verified (CSRF). Reload the page and try again.',
  },
  forbidden: { ko: '이 작업을 할 권한이 없습니다.', en: 'You are not allowed to do this.' },
  invalid_credentials: {
    ko: '이메일 또는 비밀번호가 올바르지 않습니다.',
    en: 'The email or password is incorrect.',
  },
  wrong_second_factor_code: {
    ko: '인증 코드가 올바르지 않거나 이미 사용되었습니다.',
    en: 'The authentication code is wrong or has already been used.',
  },
  signature_code_required: {
    ko: '2단계 인증을 사용하므로 서명에 인증 앱의 코드도 필요합니다.',
    en: 'You use two-factor sign-in: the signature needs the code from your authenticator app too.',
  },
  second_factor_login_expired: {
    ko: '로그인 단계가 만료되었습니다. 이메일과 비밀번호로 다시 로그인하세요.',
    en: 'The sign-in step has expired. Sign in again with your email and password.',
  },
  second_factor_already_enrolled: {
    ko: '2단계 인증이 이미 설정되어 있습니다.',
    en: 'Two-factor sign-in is already set up.',
  },
  second_factor_not_enrolled: {
    ko: '2단계 인증이 설정되어 있지 않습니다.',
    en: 'Two-factor sign-in is not set up.',
  },
  second_factor_required_for_role: {
    ko: '관리자(ADMIN)와 데이터관리자(DM)는 2단계 인증을 끌 수 없습니다. 시스템 설정으로 필수입니다.',
    en: 'Two-factor sign-in cannot be turned off: a system setting requires it for ADMIN and DM.',
  },
  second_factor_enrolment_required: {
    ko: '먼저 2단계 인증을 설정해야 합니다. 사용자 정보에서 2단계 인증을 켜세요.',
    en: 'Set up two-factor sign-in first: turn it on from your user details.',
  },
  too_many_second_factor_attempts: {
    ko: '비밀번호 또는 인증 코드를 여러 번 잘못 입력했습니다. 최대 {minutes}분 후에 다시 시도하세요.',
    en: 'Too many wrong passwords or codes. Try again in at most {minutes} minutes.',
  },
  second_factor_not_pending: {
    ko: '진행 중인 2단계 인증 등록이 없습니다. 등록을 다시 시작하세요.',
    en: 'No two-factor enrolment is in progress. Start the enrolment again.',
  },
  account_locked: {
    ko: '로그인 실패가 반복되어 계정이 잠겼습니다. {minutes}분 후에 다시 시도하세요.',
    en: 'Too many failed logins: the account is locked. Try again in {minutes} minutes.',
  },
  login_delayed: {
    ko: '이 계정에 로그인 실패가 많았습니다. {seconds}초 후에 다시 시도하세요.',
    en: 'There have been many failed logins for this account. Try again in {seconds} seconds.',
  },
  password_too_common: {
    ko: '너무 흔히 쓰이는 비밀번호입니다. 다른 비밀번호를 정하세요.',
    en: 'This password is one of the most common passwords. Choose another.',
  },
  password_policy: {
    ko: '새 비밀번호가 규칙에 맞지 않습니다. 10자 이상, 영문자와 숫자를 포함하고 이메일을 포함하지 않아야 합니다.',
    en: 'The new password does not meet the rules: at least 10 characters, with letters and digits, not containing the email.',
  },
  current_password_incorrect: {
    ko: '현재 비밀번호가 올바르지 않습니다.',
    en: 'The current password is incorrect.',
  },
  password_unchanged: {
    ko: '새 비밀번호가 현재 비밀번호와 같습니다.',
    en: 'The new password is the same as the current one.',
  },
  email_taken: { ko: '이미 사용 중인 이메일입니다.', en: 'This email is already in use.' },
  site_code_taken: {
    ko: '이 연구에 같은 기관 코드가 이미 있습니다.',
    en: 'This study already has a site with this code.',
  },
  institution_number_taken: {
    ko: '이 연구에 같은 기관 번호가 이미 있습니다.',
    en: 'This study already has a site with this institution number.',
  },
  membership_exists: {
    ko: '이 사용자는 이 연구에서 이미 같은 역할을 가지고 있습니다.',
    en: 'This user already has this role in this study.',
  },
  sites_required: {
    ko: '이 역할에는 기관을 하나 이상 지정해야 합니다.',
    en: 'This role needs at least one site.',
  },
  sites_not_allowed: {
    ko: 'DM과 ADMIN 역할은 연구의 모든 기관을 보므로 기관을 지정하지 않습니다.',
    en: 'DM and ADMIN see every site of the study; do not name sites for them.',
  },
  unknown_site: {
    ko: '이 연구에 속하지 않는 기관이 포함되어 있습니다.',
    en: 'A site does not belong to this study.',
  },
  unknown_member_email: {
    ko: '{email} 이메일의 계정이 없습니다. 먼저 사용자를 만드세요.',
    en: 'No account has the email {email}: create the user first.',
  },
  unknown_member_site: {
    ko: '구성원의 기관 코드 {code|은/는} 함께 등록하는 기관에 없습니다.',
    en: "A member's site code {code} is not among the sites being created.",
  },
  cannot_change_own_admin: {
    ko: '자신의 관리자 권한이나 활성 상태는 변경할 수 없습니다.',
    en: 'You cannot remove your own administrator rights or deactivate yourself.',
  },
  content_required: { ko: '내용을 입력해 주세요.', en: 'Please enter the content.' },
  image_type_not_allowed: {
    ko: '이미지 파일(PNG, JPEG, GIF, WebP)만 업로드할 수 있습니다.',
    en: 'Only image files (PNG, JPEG, GIF, WebP) can be uploaded.',
  },
  image_too_large: {
    ko: '이미지는 {megabytes}MB 이하여야 합니다.',
    en: 'Images must be {megabytes} MB or smaller.',
  },
  photo_type_not_allowed: {
    ko: '사진은 JPEG, PNG, HEIC 파일만 올릴 수 있습니다.',
    en: 'Only JPEG, PNG and HEIC photos can be uploaded.',
  },
  photo_too_large: {
    ko: '사진은 {megabytes}MB 이하여야 합니다.',
    en: 'Photos must be {megabytes} MB or smaller.',
  },
  photo_unreadable: {
    ko: '사진 파일을 읽을 수 없습니다. 손상되지 않은 파일을 올리십시오.',
    en: 'The photo cannot be read. Upload an undamaged file.',
  },
  photo_not_of_form: {
    ko: '이 양식에 올린 사진이 아닙니다. 사진을 다시 올리십시오.',
    en: 'This photo was not uploaded for this form. Upload the photo again.',
  },
  attachment_type_not_allowed: {
    ko: 'PDF, DOCX, XLSX, 이미지(PNG, JPEG, GIF, WebP) 파일만 첨부할 수 있습니다. 파일의 실제 형식을 확인했습니다.',
    en: 'Only PDF, DOCX, XLSX and image (PNG, JPEG, GIF, WebP) files can be attached; the content of the file was checked.',
  },
  attachment_too_large: {
    ko: '첨부파일은 {megabytes}MB 이하여야 합니다.',
    en: 'Attachments must be {megabytes} MB or smaller.',
  },
  attachment_unknown: {
    ko: '첨부파일을 찾을 수 없습니다. 다시 업로드해 주세요.',
    en: 'An attachment was not found. Please upload it again.',
  },
  guideline_not_draft: {
    ko: '임시 저장 상태의 가이드라인만 수정하거나 게시할 수 있습니다. 게시된 가이드라인은 새 버전을 만들어 수정하세요.',
    en: 'Only a draft guideline can be edited or published. To change a published guideline, create a new version.',
  },
  guideline_not_published: {
    ko: '게시된 가이드라인만 폐기하거나 새 버전을 만들 수 있습니다.',
    en: 'Only a published guideline can be retired or given a new version.',
  },
  guideline_draft_exists: {
    ko: '이 가이드라인의 새 버전 초안이 이미 있습니다.',
    en: 'A draft of a new version of this guideline already exists.',
  },
  guideline_version_taken: {
    ko: '같은 버전 번호를 쓸 수 없습니다. 다른 버전을 입력해 주세요.',
    en: 'That version number is already used. Please enter another version.',
  },
  alarm_period_invalid: {
    ko: '알림 기간은 시작일과 종료일을 모두 입력하고, 시작일이 종료일보다 늦을 수 없습니다.',
    en: 'An alarm period needs both a start and an end date, and the start cannot be after the end.',
  },
  upload_missing: {
    ko: '업로드할 파일이 없습니다(필드 이름: {field}).',
    en: 'No file was sent (field name: {field}).',
  },
  file_name_invalid: {
    ko: '파일 이름에 쓸 수 없는 문자(NUL 또는 UTF-8이 아닌 바이트)가 있습니다. 파일 이름을 바꿔 다시 업로드해 주세요.',
    en: 'The file name contains a character that cannot be used (NUL or bytes that are not UTF-8). Rename the file and upload it again.',
  },
  version_conflict: {
    ko: '다른 사용자가 먼저 이 양식을 저장했습니다. 최신 내용을 확인한 뒤 다시 저장하세요.',
    en: 'Someone saved this form first. Review the current values, then save again.',
  },
  invalid_values: {
    ko: '입력값 형식이 올바르지 않은 항목이 있습니다.',
    en: 'Some values are not in the right form.',
  },
  hard_check_failed: {
    ko: '저장할 수 없는 값이 있습니다. 항목 아래의 메시지를 확인하세요.',
    en: 'Some values cannot be saved. See the message under each item.',
  },
  reason_required: {
    ko: '저장된 값을 변경하려면 변경 사유를 입력해야 합니다.',
    en: 'Changing a saved value requires a reason for the change.',
  },
  subject_has_data: {
    ko: '등록 이후 입력된 자료(양식, 무작위 배정, 쿼리, 코멘트 또는 서명)가 있는 대상자는 삭제할 수 없습니다. 자료가 없는 잘못 등록된 대상자만 삭제할 수 있습니다.',
    en: 'This subject cannot be deleted: data were recorded after registration (forms, randomization, queries, comments or a signature). Only a subject registered in error, without such data, can be deleted.',
  },
  consent_date_in_future: {
    ko: '동의서 서명일은 오늘 이후일 수 없습니다.',
    en: 'The consent date cannot be in the future.',
  },
  invalid_initials: {
    ko: '이니셜은 영문 2~4자로 입력하세요.',
    en: 'Initials are 2 to 4 Latin letters.',
  },
  not_eligible_for_randomization: {
    ko: 'V2 선정/제외기준 평가에서 적합(예)으로 저장된 스크리닝 대상자만 무작위 배정할 수 있습니다.',
    en: 'Only a screening subject saved as eligible (yes) in the V2 eligibility evaluation can be randomized.',
  },
  already_unblinded: {
    ko: '이미 눈가림이 해제된 대상자입니다.',
    en: "This subject's blind is already broken.",
  },
  not_randomized: {
    ko: '무작위 배정되지 않은 대상자는 눈가림을 해제할 수 없습니다.',
    en: 'A subject not randomized has no blind to break.',
  },
  groups_in_forms: {
    ko: '배정군이 이미 양식에 기록된 대상자가 있어 눈가림 연구로 되돌릴 수 없습니다.',
    en: 'Groups are already written into the forms of randomized subjects: the study cannot be blinded again.',
  },
  already_randomized: { ko: '이미 무작위 배정된 대상자입니다.', en: 'This subject is already randomized.' },
  randomization_list_exhausted: {
    ko: '이 기관의 무작위 배정표가 모두 사용되었습니다. 관리자에게 배정표 추가를 요청하세요.',
    en: "This site's allocation list is used up. Ask an administrator for more slots.",
  },
  randomization_off: {
    ko: '이 임상시험은 무작위 배정을 하지 않도록 만들어졌습니다.',
    en: 'This study was created without randomization.',
  },
  randomization_list_exists: {
    ko: '이미 배정표가 있는 기관이 포함되어 있습니다: {sites}',
    en: 'These sites already have an allocation list: {sites}',
  },
  randomization_import_invalid: {
    ko: '배정표 CSV를 읽을 수 없습니다: {problem}',
    en: 'The allocation CSV cannot be read: {problem}',
  },
  signature_password_incorrect: {
    ko: '비밀번호가 올바르지 않습니다. 서명하려면 본인의 로그인 비밀번호를 입력하세요.',
    en: 'The password is incorrect. Enter your own login password to sign.',
  },
  too_many_signature_attempts: {
    ko: '비밀번호를 여러 번 잘못 입력하여 서명이 잠시 제한되었습니다. 최대 {minutes}분 후에 다시 시도하세요.',
    en: 'Signing is paused after several wrong passwords. Try again in at most {minutes} minutes.',
  },
  study_in_design: {
    ko: '설계 중인 임상시험입니다. 운영을 개시한 뒤에 대상자를 등록할 수 있습니다.',
    en: 'The study is still in design. Subjects can be registered once it goes live.',
  },
  study_not_in_design: {
    ko: '설계 중인 임상시험만 정의를 바꾸거나 운영을 개시할 수 있습니다. 운영 중인 시험의 설계는 프로토콜 변경으로 바꿉니다.',
    en: "Only a study in design can take a new definition or go live. A live study's design changes by an amendment.",
  },
  definition_version_not_found: {
    ko: '이 시험의 정의에는 버전 {version|이/가} 없습니다. 버전 목록에서 고르세요.',
    en: "The study's definition has no version {version}. Choose one from the list of versions.",
  },
  design_draft_changed: {
    ko: '{name|이/가} 설계 초안을 먼저 저장했습니다(개정 {revision}). 아래의 차이를 확인하고 합친 뒤 다시 저장하세요. 이번 변경은 저장되지 않았습니다.',
    en: '{name} saved the design draft first (revision {revision}). Check the differences below and merge them, then save again. This change was not saved.',
  },
  design_draft_gone: {
    ko: '그사이 설계 초안이 배포되었습니다. 설계를 다시 불러오세요. 이번 변경은 저장되지 않았습니다.',
    en: 'The design draft was published in the meantime. Load the design again. This change was not saved.',
  },
  design_draft_required: {
    ko: '저장된 설계 초안이 없습니다. 설계를 바꾸면 초안이 저장됩니다.',
    en: 'There is no saved design draft. The draft is saved once the design is edited.',
  },
  design_review_not_open: {
    ko: '이 검토 요청은 이미 닫혔습니다. 설계를 다시 불러오세요.',
    en: 'This review request is already closed. Load the design again.',
  },
  design_review_own_request: {
    ko: '검토를 요청한 사람은 직접 승인할 수 없습니다. 다른 설계자가 승인해야 합니다.',
    en: 'The designer who asked for the review cannot approve it. Another designer approves it.',
  },
  design_element_not_found: {
    ko: '설계 초안에 {element} 요소가 없습니다. 설계를 다시 불러온 뒤 의견을 남기세요.',
    en: 'The design draft has no element {element}. Load the design again, then comment.',
  },
  design_approval_required: {
    ko: '이 임상시험은 승인된 검토가 있어야 초안을 배포할 수 있습니다. 검토를 요청하고 다른 설계자의 승인을 받으세요.',
    en: 'This study publishes a draft only with an approved review. Ask for a review and have another designer approve it.',
  },
  study_definition_required: {
    ko: '임상시험 정의를 먼저 올려야 운영을 개시할 수 있습니다.',
    en: 'Upload the study definition before the study goes live.',
  },
  study_sites_required: {
    ko: '기관을 하나 이상 등록해야 운영을 개시할 수 있습니다.',
    en: 'Add at least one site before the study goes live.',
  },
  study_not_live: {
    ko: '운영 중인 임상시험만 프로토콜 변경을 만들 수 있습니다. 설계 중인 시험은 설계에서 바로 바꿉니다.',
    en: 'Only a live study takes an amendment. A study in design is changed in the designer directly.',
  },
  amendment_draft_open: {
    ko: '작성 중인 프로토콜 변경이 있습니다: {number}. 그 변경을 배포하거나 폐기한 뒤에 새로 만드세요.',
    en: 'Amendment {number} is being drafted: publish or discard it before opening another.',
  },
  amendment_number_taken: {
    ko: '이 시험에 이미 있는 프로토콜 변경 번호입니다: {number}. 다른 번호를 쓰세요.',
    en: 'The study has an amendment numbered {number} already: use another number.',
  },
  amendment_not_draft: {
    ko: '배포되었거나 폐기된 프로토콜 변경은 바꿀 수 없습니다.',
    en: 'A published or discarded amendment cannot change.',
  },
  amendment_not_ready: {
    ko: '프로토콜 변경이 아직 준비되지 않았습니다. 남은 질문에 답하고 거부된 선언을 고친 뒤에 다시 하세요.',
    en: 'The amendment is not ready: answer its open questions and fix what is refused first.',
  },
  amendment_impact_stale: {
    ko: '영향 분석이 지금의 초안으로 실행되지 않았습니다. 영향 분석을 다시 실행하고 결과를 확인한 뒤에 배포하세요.',
    en: 'The impact analysis was not run on the draft as it is now: run it again and read it before publishing.',
  },
  amendment_not_published: {
    ko: '배포된 프로토콜 변경만 대상자를 새 버전으로 이관합니다.',
    en: 'Only a published amendment moves subjects to its version.',
  },
  migration_running: {
    ko: '같은 범위의 이관 작업이 이미 대기 중이거나 진행 중입니다. 끝난 뒤에 다시 시작하세요.',
    en: 'A migration of the same scope is queued or running already: start another once it ends.',
  },
  migration_failed: {
    ko: '이 대상자를 새 버전으로 이관하지 못했습니다. 서버 기록을 확인하고 이 대상자만 다시 이관하세요.',
    en: 'This subject could not be moved to the new version: see the server log, then migrate this subject again.',
  },
  monitoring_signal_dismissed: {
    ko: '기각된 신호입니다. 기각된 신호로는 쿼리, 메모, 기각을 다시 할 수 없습니다.',
    en: 'This signal was dismissed: it takes no query, note or dismissal any more.',
  },
  monitoring_signal_nothing_to_query: {
    ko: '이 신호에는 쿼리를 발행할 대상자와 방문이 없습니다.',
    en: 'This signal names no subject at a visit to raise a query on.',
  },
  monitoring_limits_invalid: {
    ko: '품질 허용 한계가 올바르지 않습니다. 지표마다 한 번씩, 한계는 경고값보다 위험한 쪽에 두세요.',
    en: 'The tolerance limits are not valid: name each indicator once, with its limit past its warning on the risky side.',
  },
  duplicate_site: {
    ko: '같은 기관이 두 번 포함되어 있습니다. 기관마다 한 번만 지정하세요.',
    en: 'A site is listed twice: name each site once.',
  },
  invalid_declarations: {
    ko: '프로토콜 변경의 선언이 올바르지 않습니다. 문제 {count}건을 확인하세요. 아무것도 저장되지 않았습니다.',
    en: "The amendment's declarations are not valid: see the {count} problems listed. Nothing was saved.",
  },
  invalid_definition: {
    ko: '임상시험 정의 문서가 올바르지 않습니다. 문제 {count}건을 확인하세요. 아무것도 저장되지 않았습니다.',
    en: 'The study definition document is not valid: see the {count} problems listed. Nothing was saved.',
  },
  invalid_definition_import: {
    ko: '가져올 파일에 오류가 {count}건 있습니다. 목록을 확인하세요. 아무것도 저장되지 않았습니다.',
    en: 'The file to import has {count} errors: see the list. Nothing was saved.',
  },
  unreadable_definition_file: {
    ko: '파일을 설계로 읽을 수 없습니다: 문제 {count}건을 확인하세요. 아무것도 저장되지 않았습니다.',
    en: 'The file cannot be read as a design: see the {count} problems listed. Nothing was saved.',
  },
  definition_import_changed: {
    ko: '미리 본 뒤로 가져오기 결과가 달라졌습니다(다른 파일이거나 임상시험 정의가 바뀜). 다시 미리 보세요.',
    en: 'The import no longer gives what the preview showed (another file, or the study changed). Preview it again.',
  },
  definition_key_mismatch: {
    ko: '정의 문서의 임상시험 키({documentKey})가 이 임상시험의 키({studyKey})와 다릅니다.',
    en: "The document's study key ({documentKey}) differs from this study's ({studyKey}).",
  },
  study_code_taken: {
    ko: '같은 코드의 임상시험이 이미 있습니다.',
    en: 'A study with this code already exists.',
  },
  already_signed: {
    ko: '이 대상자의 증례기록서는 이미 서명되었습니다.',
    en: "This subject's casebook is already signed.",
  },
  unscheduled_visits_not_declared: {
    ko: '이 임상시험에는 비정기 방문이 정의되어 있지 않습니다.',
    en: 'This study does not define unscheduled visits.',
  },
  unscheduled_visit_date_in_future: {
    ko: '비정기 방문일은 오늘 이후일 수 없습니다.',
    en: 'The unscheduled visit date cannot be in the future.',
  },
  unscheduled_visit_before_consent: {
    ko: '비정기 방문일은 동의일({consentDate}) 이전일 수 없습니다.',
    en: 'The unscheduled visit date cannot be before the consent date ({consentDate}).',
  },
  unscheduled_visit_has_data: {
    ko: '저장된 데이터가 있는 비정기 방문은 삭제할 수 없습니다. 먼저 각 양식을 초기화하세요.',
    en: 'An unscheduled visit with saved data cannot be deleted. Reset its forms first.',
  },
  signature_form_read_only: {
    ko: '시험책임자 서명 양식은 직접 저장하거나 초기화할 수 없습니다. 서명 버튼으로 서명하세요.',
    en: 'The investigator signature form cannot be saved or reset directly. Use the Sign button.',
  },
  sae_state_conflict: {
    ko: 'SAE 보고의 현재 상태에서는 이 작업을 할 수 없습니다. 최신 내용을 확인하세요.',
    en: "This action is not possible in the SAE report's current state. Review the latest version of the report.",
  },
  sae_version_conflict: {
    ko: '다른 사용자가 먼저 이 SAE 보고를 변경했습니다. 최신 내용을 확인한 뒤 다시 시도하세요.',
    en: 'Someone changed this SAE report first. Review the latest version, then try again.',
  },
  sae_awareness_invalid: {
    ko: '인지 시각은 미래일 수 없습니다.',
    en: 'The awareness time cannot be in the future.',
  },
  query_state_conflict: {
    ko: '쿼리의 현재 상태에서는 이 작업을 할 수 없습니다. 최신 내용을 확인하세요.',
    en: "This action is not possible in the query's current state. Review the latest version of the query.",
  },
  query_reason_required: {
    ko: '점검 조건에 아직 해당하는 시스템 쿼리를 종료하려면 사유를 입력해야 합니다.',
    en: 'Closing a system query whose check still fails requires a reason.',
  },
  system_query_not_cancellable: {
    ko: '시스템 쿼리는 취소할 수 없습니다. 종료하세요.',
    en: 'A system query cannot be cancelled; close it instead.',
  },
  query_item_unknown: {
    ko: '이 양식에 없는 항목에는 쿼리를 발행할 수 없습니다.',
    en: 'A query can only be raised on an item of this form.',
  },
  review_sort_unknown: {
    ko: '이 목록에 없는 항목으로는 정렬할 수 없습니다.',
    en: 'The listing can only be sorted by one of its items.',
  },
  coding_file_invalid: {
    ko: '사전 파일의 형식이 맞지 않습니다: {problem}',
    en: 'The dictionary file does not fit its format: {problem}',
  },
  coding_version_missing: {
    ko: '사전 버전을 알 수 없습니다. 버전을 입력해 주세요.',
    en: 'The dictionary version is not known: enter the version.',
  },
  coding_version_exists: {
    ko: '이 사전 버전은 이미 등록되어 있습니다.',
    en: 'This dictionary version is already loaded.',
  },
  coding_file_too_large: {
    ko: '사전 파일은 {megabytes}MB 이하여야 합니다.',
    en: 'Dictionary files must be {megabytes} MB or smaller.',
  },
  coding_changed: {
    ko: '다른 사용자가 이 코딩을 먼저 바꾸었습니다. 새로 고친 뒤 다시 시도해 주세요.',
    en: 'Someone changed this coding first. Reload and try again.',
  },
  coding_code_unknown: {
    ko: '현재 사전 버전에 없거나 더 이상 사용하지 않는 코드입니다.',
    en: 'The code is not a current term of the active dictionary version.',
  },
  coding_no_dictionary: {
    ko: '이 종류의 사전이 아직 등록되지 않았습니다.',
    en: 'No dictionary of this kind is loaded yet.',
  },
  coding_already_active: {
    ko: '이미 사용 중인 사전 버전입니다.',
    en: 'This dictionary version is already the active one.',
  },
  coding_query_open: {
    ko: '이 원문에는 이미 쿼리가 발행되어 있습니다.',
    en: 'A query was already sent on this verbatim.',
  },
  review_query_exists: {
    ko: '선택한 항목 중 {count}개에 이미 해결되지 않은 쿼리가 있습니다. 쿼리를 발행하지 않았습니다.',
    en: '{count} of the chosen items already have an unresolved query. No query was raised.',
  },
  frozen: {
    ko: '{level|은/는} 프리징되어 데이터를 변경할 수 없습니다. 쿼리와 SDV는 계속할 수 있습니다.',
    en: '{level} is frozen: its data cannot change. Queries and SDV can go on.',
  },
  locked: {
    ko: '{level|은/는} 잠금 상태여서 아무것도 변경할 수 없습니다.',
    en: '{level} is locked: nothing can change.',
  },
  hold_already_in_force: {
    ko: '이미 프리징 또는 잠금 상태입니다. 최신 상태를 확인하세요.',
    en: 'This is already frozen or locked. Review the current state.',
  },
  hold_not_in_force: {
    ko: '프리징 또는 잠금 상태가 아니므로 해제할 수 없습니다. 최신 상태를 확인하세요.',
    en: 'This is not frozen or locked, so there is nothing to lift. Review the current state.',
  },
  sdv_already_verified: {
    ko: '이미 SDV(원자료 검증)가 완료된 항목이 있습니다. 최신 상태를 확인하세요.',
    en: 'Some items are already verified. Review the current state.',
  },
  sdv_not_verified: {
    ko: 'SDV(원자료 검증)가 되지 않은 항목은 검증을 취소할 수 없습니다.',
    en: 'An item that is not verified cannot be unverified.',
  },
  sdv_item_not_entered: {
    ko: '입력되지 않았거나 자동 계산되는 항목은 SDV(원자료 검증)를 할 수 없습니다.',
    en: 'Only entered items can be verified; empty and computed items cannot.',
  },
  sdv_nothing_to_verify: {
    ko: 'SDV(원자료 검증) 계획에 따라 검증할 항목이 남아 있지 않습니다.',
    en: 'Nothing is left to verify under the SDV plan.',
  },
  data_export_unknown_scope: {
    ko: '이 연구에 없는 기관이나 CRF가 내보내기 범위에 있습니다.',
    en: 'The export scope names a site or form this study does not have.',
  },
  data_export_labels_not_for_format: {
    ko: '값 라벨은 양식별 표(CSV, XLSX) 내보내기에서만 선택할 수 있습니다. ODM은 코드 목록을 함께 담습니다.',
    en: 'Value labels can only be chosen for the form tables (CSV, XLSX); ODM carries its code lists itself.',
  },
  data_export_as_entered_not_for_format: {
    ko: '"입력된 그대로"는 양식별 표(CSV, XLSX) 내보내기에서만 선택할 수 있습니다. ODM은 입력된 값과 그 뒤의 모든 변경을 감사 추적에 담습니다.',
    en: '"As entered" can only be chosen for the form tables (CSV, XLSX). ODM carries what was entered, and every change since, in its audit trail.',
  },
  data_export_finished: {
    ko: '이미 끝난 내보내기는 취소할 수 없습니다.',
    en: 'This export has already finished and cannot be cancelled.',
  },
  data_export_not_ready: {
    ko: '완료된 내보내기만 내려받을 수 있습니다.',
    en: 'Only a finished export can be downloaded.',
  },
  unknown_lab_test: {
    ko: '실험실 검사 양식에 없는 수치 검사 항목입니다.',
    en: 'This is not a numeric test of the laboratory form.',
  },
  lab_range_invalid: {
    ko: '정상 범위가 올바르지 않습니다. 하한 또는 상한을 입력하고, 하한은 상한보다 클 수 없으며 최소 연령은 최대 연령보다 클 수 없습니다.',
    en: 'The normal range is not valid: give a low or a high limit; low may not exceed high, nor the minimum age the maximum.',
  },
  lab_range_retired: {
    ko: '사용 중지된 정상 범위는 수정할 수 없습니다.',
    en: 'A retired normal range cannot be changed.',
  },
  training_required: {
    ko: '이 연구의 필수 교육을 아직 이수하지 않아 자료를 입력할 수 없습니다. 교육 페이지에서 필수 교육을 먼저 이수하세요.',
    en: 'You have not completed this study’s required training, so you cannot enter data yet. Complete it on the training page first.',
  },
  training_quiz_required: {
    ko: '이 교육은 퀴즈에 합격해야 이수됩니다.',
    en: 'This training is completed by passing its quiz.',
  },
  training_no_quiz: {
    ko: '이 교육에는 퀴즈가 없습니다. 읽은 뒤 이수 완료를 누르세요.',
    en: 'This training has no quiz; mark it complete after reading it.',
  },
  training_quiz_answers: {
    ko: '모든 문항에 보기 중 하나씩 답하세요.',
    en: 'Answer every question with one of its options.',
  },
  training_quiz_invalid: {
    ko: '퀴즈의 정답은 각 문항의 보기 중 하나여야 합니다.',
    en: 'Each quiz question’s right answer must be one of its options.',
  },
  training_not_published: {
    ko: '게시된 교육만 이수할 수 있습니다.',
    en: 'Only a published training module can be completed.',
  },
  training_not_completed: {
    ko: '현재 버전의 교육을 이수한 뒤에 이수증을 받을 수 있습니다.',
    en: 'The certificate is available once you have completed the current version of this training.',
  },
  sdv_plan_unchanged: {
    ko: 'SDV 계획이 변경되지 않았습니다.',
    en: 'The SDV plan is unchanged.',
  },
  unknown_item: {
    ko: '이 양식에 없는 항목입니다.',
    en: 'This form has no such item.',
  },
  internal_error: {
    ko: '서버에서 오류가 발생했습니다. 관리자에게 문의하세요.',
    en: 'The server encountered an error. Please contact the administrator.',
  },
} as const satisfies Record<string, Text>;

export type ErrorCode = keyof typeof errorMessages;

/** A message parameter: a value, or words in both languages (the reader's is chosen). */
export type MessageParam = string | number | Text;

export function errorMessage(
  code: ErrorCode,
  language: Language,
  params: Record<string, MessageParam> = {},
): string {
  return errorMessages[code][language].replace(
    /\{(\w+)(?:\|([^}]+))?\}/g,
    (match, name: string, particle: string | undefined) => {
      const param = params[name];
      if (param === undefined) return match;
      const word = typeof param === 'object' ? param[language] : String(param);
      return particle !== undefined && isParticle(particle) ? withParticle(word, particle) : word;
    },
  );
}
