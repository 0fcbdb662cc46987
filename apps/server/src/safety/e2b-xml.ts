import type { SaeCriterion } from '@cdms/contract';
import type { SaeCase } from './load-sae-case.ts';

/**
 * An E2B(R3)-shaped ICSR of one report version (ICH E2B(R3) implementation guide, HL7 v3): the batch
 * wrapper `MCCI_IN200100UV01` around one `PORR_IN049016UV` message, whose control act holds the case's
 * `investigationEvent` — the safety report id and version (C.1.1), report type "report from study"
 * (C.1.3), dates (C.1.4 first received = awareness, C.1.5 most recent = this version), the narrative
 * (H.1), the patient by initials (D.1), the reaction with its start and end (E.i) and seriousness
 * criteria (E.i.3.2a–f, each a boolean observation), the suspect products (G.k, characterisation 1
 * "suspect"), the relevant history (D.7.2) and the reporter (C.2). The structure follows the guide's
 * element names and the ICH code system OIDs; it is not validated against the ICH schema (no registry
 * package carries it; see README.md).
 */

const ICH = '2.16.840.1.113883.3.989.2.1.1';
/** E.i.3.2a–f: the seriousness criteria's observation codes (ICH code system .19). */
const criterionCodes: Record<SaeCriterion, { code: string; name: string }> = {
  death: { code: '34', name: 'resultsInDeath' },
  lifeThreatening: { code: '21', name: 'isLifeThreatening' },
  hospitalisation: { code: '33', name: 'requiresInpatientHospitalization' },
  disability: { code: '35', name: 'resultsInPersistentOrSignificantDisability' },
  congenitalAnomaly: { code: '12', name: 'congenitalAnomalyBirthDefect' },
  medicallyImportant: { code: '26', name: 'otherMedicallyImportantCondition' },
};

export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** HL7 TS: YYYYMMDDHHMMSS+0900 (Korea), or a date's YYYYMMDD. */
function hl7Time(instant: string | Date): string {
  const korea = new Date(new Date(instant).getTime() + 9 * 3_600_000).toISOString();
  return `${korea.slice(0, 19).replace(/[-:T]/g, '')}+0900`;
}
const hl7Date = (date: string) => date.replace(/-/g, '');

export function renderE2bXml(sae: SaeCase, senderId: string): string {
  const e = escapeXml;
  const { version, report } = sae;
  const caseId = `KR-${sae.study.code}-SAE-${report.id}`;
  const messageId = `${caseId}-V${version.version}`;
  const now = hl7Time(new Date());
  const criteria = (Object.keys(criterionCodes) as SaeCriterion[])
    .map((criterion) => {
      const { code, name } = criterionCodes[criterion];
      return `                        <outboundRelationship2 typeCode="PERT">
                          <observation classCode="OBS" moodCode="EVN">
                            <code code="${code}" codeSystem="${ICH}.19" displayName="${name}"/>
                            <value xsi:type="BL" value="${version.content.criteria.includes(criterion)}"/>
                          </observation>
                        </outboundRelationship2>`;
    })
    .join('\n');
  const products = version.content.suspectProducts
    .map(
      (product, index) => `                <component typeCode="COMP">
                  <substanceAdministration classCode="SBADM" moodCode="EVN">
                    <id root="${e(caseId)}.product" extension="${index + 1}"/>
                    <consumable typeCode="CSM">
                      <instanceOfKind classCode="INST">
                        <kindOfProduct classCode="MMAT" determinerCode="KIND">
                          <name>${e(product)}</name>
                        </kindOfProduct>
                      </instanceOfKind>
                    </consumable>
                  </substanceAdministration>
                </component>`,
    )
    .join('\n');
  const characterisations = version.content.suspectProducts
    .map(
      (_, index) => `            <component typeCode="COMP">
              <causalityAssessment classCode="OBS" moodCode="EVN">
                <code code="20" codeSystem="${ICH}.19" displayName="interventionCharacterization"/>
                <value xsi:type="CE" code="1" codeSystem="${ICH}.21" displayName="suspect"/>
                <subject2 typeCode="SUBJ">
                  <productUseReference classCode="SBADM" moodCode="EVN">
                    <id root="${e(caseId)}.product" extension="${index + 1}"/>
                  </productUseReference>
                </subject2>
              </causalityAssessment>
            </component>`,
    )
    .join('\n');
  const submitted = version.submittedAt ? hl7Time(version.submittedAt) : now;
  return `<?xml version="1.0" encoding="UTF-8"?>
<MCCI_IN200100UV01 xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ITSVersion="XML_1.0">
  <id root="${ICH}.22" extension="${e(messageId)}-BATCH"/>
  <creationTime value="${now}"/>
  <responseModeCode code="D"/>
  <interactionId root="2.16.840.1.113883.1.6" extension="MCCI_IN200100UV01"/>
  <name code="1" codeSystem="${ICH}.1" displayName="ichicsr"/>
  <PORR_IN049016UV>
    <id root="${ICH}.1" extension="${e(messageId)}"/>
    <creationTime value="${now}"/>
    <interactionId root="2.16.840.1.113883.1.6" extension="PORR_IN049016UV"/>
    <processingCode code="P"/>
    <processingModeCode code="T"/>
    <acceptAckCode code="AL"/>
    <receiver typeCode="RCV">
      <device classCode="DEV" determinerCode="INSTANCE">
        <id root="${ICH}.14" extension="${e(sae.study.sponsor || 'SPONSOR')}"/>
      </device>
    </receiver>
    <sender typeCode="SND">
      <device classCode="DEV" determinerCode="INSTANCE">
        <id root="${ICH}.13" extension="${e(senderId)}"/>
      </device>
    </sender>
    <controlActProcess classCode="CACT" moodCode="EVN">
      <code code="PORR_TE049016UV" codeSystem="2.16.840.1.113883.1.18"/>
      <effectiveTime value="${submitted}"/>
      <subject typeCode="SUBJ">
        <investigationEvent classCode="INVSTG" moodCode="EVN">
          <id root="${ICH}.1" extension="${e(caseId)}"/>
          <id root="${ICH}.2" extension="${e(caseId)}"/>
          <code code="PAT_ADV_EVNT" codeSystem="2.16.840.1.113883.5.4"/>
          <text>${e(version.content.narrative)}</text>
          <statusCode code="active"/>
          <effectiveTime>
            <low value="${hl7Time(report.awareness_at)}"/>
          </effectiveTime>
          <availabilityTime value="${submitted}"/>
          <component typeCode="COMP">
            <adverseEventAssessment classCode="INVSTG" moodCode="EVN">
              <subject1 typeCode="SBJ">
                <primaryRole classCode="INVSBJ">
                  <player1 classCode="PSN" determinerCode="INSTANCE">
                    <name>${e(sae.subject.initials)}</name>
                  </player1>
                  <subjectOf1 typeCode="SBJ">
                    <researchStudy classCode="CLNTRL" moodCode="EVN">
                      <id root="${ICH}.5" extension="${e(sae.study.protocolNumber || sae.study.code)}"/>
                      <title>${e(sae.study.titleEn || sae.study.title)}</title>
                    </researchStudy>
                  </subjectOf1>
                  <subjectOf2 typeCode="SBJ">
                    <organizer classCode="CATEGORY" moodCode="EVN">
                      <code code="1" codeSystem="${ICH}.20" displayName="relevantMedicalHistoryAndConcurrentConditions"/>
                      <component typeCode="COMP">
                        <observation classCode="OBS" moodCode="EVN">
                          <code code="18" codeSystem="${ICH}.19" displayName="comment"/>
                          <value xsi:type="ED">${e(version.content.relevantHistory)}</value>
                        </observation>
                      </component>
                    </organizer>
                  </subjectOf2>
                  <subjectOf2 typeCode="SBJ">
                    <observation classCode="OBS" moodCode="EVN">
                      <id root="${e(caseId)}.reaction" extension="${report.event_number}"/>
                      <code code="29" codeSystem="${ICH}.19" displayName="reaction"/>
                      <effectiveTime xsi:type="IVL_TS">
                        ${sae.event.startDate ? `<low value="${hl7Date(sae.event.startDate)}"/>` : '<low nullFlavor="UNK"/>'}
                        ${sae.event.endDate ? `<high value="${hl7Date(sae.event.endDate)}"/>` : ''}
                      </effectiveTime>
                      <value xsi:type="CE">
                        <originalText>${e(sae.event.term)}</originalText>
                      </value>
                      <location typeCode="LOC">
                        <locatedEntity classCode="LOCE">
                          <locatedPlace classCode="COUNTRY" determinerCode="INSTANCE">
                            <code code="KR" codeSystem="1.0.3166.1.2.2"/>
                          </locatedPlace>
                        </locatedEntity>
                      </location>
${criteria}
                      <outboundRelationship2 typeCode="PERT">
                        <observation classCode="OBS" moodCode="EVN">
                          <code code="27" codeSystem="${ICH}.19" displayName="outcome"/>
                          <value xsi:type="ED">${e(version.content.outcome)}</value>
                        </observation>
                      </outboundRelationship2>
                    </observation>
                  </subjectOf2>
                  <subjectOf2 typeCode="SBJ">
                    <organizer classCode="CATEGORY" moodCode="EVN">
                      <code code="4" codeSystem="${ICH}.20" displayName="drugInformation"/>
${products}
                    </organizer>
                  </subjectOf2>
                </primaryRole>
              </subject1>
${characterisations}
            </adverseEventAssessment>
          </component>
          <outboundRelationship typeCode="SPRT">
            <relatedInvestigation classCode="INVSTG" moodCode="EVN">
              <code code="2" codeSystem="${ICH}.22" displayName="sourceReport"/>
              <subjectOf2 typeCode="SUBJ">
                <controlActEvent classCode="CACT" moodCode="EVN">
                  <author typeCode="AUT">
                    <assignedEntity classCode="ASSIGNED">
                      <assignedPerson classCode="PSN" determinerCode="INSTANCE">
                        <name>${e(version.content.reporter)}</name>
                      </assignedPerson>
                      <representedOrganization classCode="ORG" determinerCode="INSTANCE">
                        <name>${e(sae.site.name)}</name>
                      </representedOrganization>
                    </assignedEntity>
                  </author>
                </controlActEvent>
              </subjectOf2>
            </relatedInvestigation>
          </outboundRelationship>
          <subjectOf2 typeCode="SUBJ">
            <investigationCharacteristic classCode="OBS" moodCode="EVN">
              <code code="1" codeSystem="${ICH}.23" displayName="ichReportType"/>
              <value xsi:type="CE" code="2" codeSystem="${ICH}.2" displayName="reportFromStudy"/>
            </investigationCharacteristic>
          </subjectOf2>
          <subjectOf2 typeCode="SUBJ">
            <investigationCharacteristic classCode="OBS" moodCode="EVN">
              <code code="3" codeSystem="${ICH}.23" displayName="otherCaseIds"/>
              <value xsi:type="ST">${e(`${sae.subject.screeningNumber} #${report.event_number} v${version.version}`)}</value>
            </investigationCharacteristic>
          </subjectOf2>
        </investigationEvent>
      </subject>
    </controlActProcess>
  </PORR_IN049016UV>
  <receiver typeCode="RCV">
    <device classCode="DEV" determinerCode="INSTANCE">
      <id root="${ICH}.14" extension="${e(sae.study.sponsor || 'SPONSOR')}"/>
    </device>
  </receiver>
  <sender typeCode="SND">
    <device classCode="DEV" determinerCode="INSTANCE">
      <id root="${ICH}.13" extension="${e(senderId)}"/>
    </device>
  </sender>
</MCCI_IN200100UV01>
`;
}
