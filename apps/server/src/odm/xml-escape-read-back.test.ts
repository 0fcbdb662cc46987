import { xmlAttributes, xmlSafeText } from '@cdms/study';
import { describe, expect, it } from 'vitest';
import { readOdm } from './read-odm.ts';

// The escaping itself is packages/study's (convert/xml-escape.ts); here, its text read back by ours.
describe('XML escaping read back', () => {
  it('gives text an XML parser reads back exactly (apart from the replaced characters)', () => {
    const value = `Tom & "Jerry" <b>'s</b>\nline two\r\nthree\ttab 환자 😀 \u0001end`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?><ODM ODMVersion="1.3.2" FileType="Snapshot"><ClinicalData><SubjectData${xmlAttributes({ SubjectKey: value })}><StudyEventData StudyEventOID="SE.v1"><FormData FormOID="F.f"><ItemGroupData ItemGroupOID="IG.f.s"><ItemData${xmlAttributes({ ItemOID: 'I.f.i', Value: value })}/></ItemGroupData></FormData></StudyEventData></SubjectData></ClinicalData></ODM>`;
    const read = readOdm(xml);
    const expected = xmlSafeText(value);
    const subject = read.subjects.get(expected);
    expect(subject?.subjectKey).toBe(expected);
    expect(subject?.visits.v1?.f?.s?.i?.values).toEqual([expected]);
  });
});
