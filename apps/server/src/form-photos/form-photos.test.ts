import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serializeTracing, type Tracing } from '@cdms/study';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { sniffPhotoType } from './photo-type.ts';

// Issue 19 item 2: the eardrum photo is uploaded for one form, converted without metadata, referred to by
// the form's `photo` item and traced in its `tracing` item — both saved, audited and versioned through
// the form's own save path.

function multipart(fieldName: string, fileName: string, bytes: Buffer) {
  const boundary = '----cdms-photo-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${fileName}"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A 64×48 HEIC (HEVC) as an iPhone writes it, made once with libheif's heif-enc (libheif-examples). */
const HEIC_64X48 = Buffer.from(
  'AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAa1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRtAAAAAAACAAAAEGlkYXQAAAAAAEAAMAAAADhpbG9jAQAAAERAAAIAAQAAAAAAAAHRAAEAAAAAAAAAHAACAAEAAAAAAAAAAQAAAAAAAAAIAAAAOGlpbmYAAAAAAAIAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAAAADYaXBycAAAALZpcGNvAAAAdmh2Y0MBA3AAAAAAAAAAAAAe8AD8/fj4AAAPAyAAAQAYQAEMAf//A3AAAAMAkAAAAwAAAwAeugJAIQABACpCAQEDcAAAAwCQAAADAAADAB6gIIEFlurkprm4EBAwIAAAAwAgAAADACEiAAEABkQBwXPAiQAAABRpc3BlAAAAAAAAAEAAAABAAAAAFGlzcGUAAAAAAAAAQAAAADAAAAAQcGl4aQAAAAADCAgIAAAAGmlwbWEAAAAAAAAAAgABAoECAAICA4QAAAAaaXJlZgAAAAAAAAAOZGltZwACAAEAAQAAACRtZGF0AAAAGCgBrxOA+BDhp3/4OqP/tMzw6trvzopDPg==',
  'base64',
);

const PATIENT_NAME = 'Hong Gildong 19800101';

/** A JPEG as a phone writes it: EXIF with GPS position, the owner's name and a camera serial. */
async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 240, channels: 3, background: '#c8b8b0' } })
    .jpeg()
    .withExif({
      IFD0: { Artist: PATIENT_NAME, Copyright: PATIENT_NAME, Make: 'PhoneCo', Model: 'X1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '37/1 33/1 59/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '126/1 58/1 41/1',
      },
    })
    .toBuffer();
}

function tracing(membraneR: number, perforationR: number): string {
  const value: Tracing = {
    version: 1,
    aspect: 4 / 3,
    membrane: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: membraneR / (4 / 3), ry: membraneR },
    perforation: { kind: 'ellipse', cx: 0.5, cy: 0.5, rx: perforationR / (4 / 3), ry: perforationR },
  };
  return serializeTracing(value);
}

describeWithDatabase(
  'eardrum photos of the tympanicPhoto form',
  (database) => {
    let app: App;
    let studyId: number;
    let subjectId: number;
    let siteId: (institution: string) => number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const upload = (who: string, bytes: Buffer, visit = 'v1', field = 'photo', subject = subjectId) => {
      const body = multipart(field, 'ear.jpg', bytes);
      return app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/subjects/${subject}/forms/${visit}/tympanicPhoto/photos`,
        payload: body.payload,
        headers: { ...body.headers, ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
      });
    };
    const formUrl = (visit = 'v1') =>
      `/api/studies/${studyId}/subjects/${subjectId}/forms/${visit}/tympanicPhoto`;

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['crc', 'crc3', 'cra', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      ({ studyId, siteId } = await demoStudyIds(database().db));
      const created = await as('crc', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: siteId('02'),
        consentDate: '2026-11-02',
        initials: 'PHT',
      });
      expect(created.statusCode, created.body).toBe(201);
      subjectId = created.json().id;
    });

    afterAll(async () => {
      await app?.close();
    });

    it('stores a JPEG re-encoded without EXIF: no GPS, no name, hashed', async () => {
      const original = await jpegWithGps();
      const before = await sharp(original).metadata();
      expect(
        before.exif?.includes(Buffer.from('GPS')) || before.exif?.includes(Buffer.from(PATIENT_NAME)),
      ).toBe(true);
      const response = await upload('crc', original);
      expect(response.statusCode, response.body).toBe(201);
      const photo = response.json();
      expect(photo).toMatchObject({ contentType: 'image/jpeg', width: 320, height: 240, sourceType: 'jpeg' });
      expect(photo.reference).toBe(`${photo.photoId}:${photo.sha256}`);

      const read = await as(
        'crc',
        'GET',
        `/api/studies/${studyId}/subjects/${subjectId}/photos/${photo.photoId}`,
      );
      expect(read.statusCode).toBe(200);
      expect(read.headers['content-type']).toBe('image/jpeg');
      const stored = read.rawPayload;
      const after = await sharp(stored).metadata();
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(stored.includes(Buffer.from(PATIENT_NAME))).toBe(false);
      expect(stored.includes(Buffer.from('PhoneCo'))).toBe(false);
      const { createHash } = await import('node:crypto');
      expect(createHash('sha256').update(stored).digest('hex')).toBe(photo.sha256);

      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'entity_id'])
        .where('entity_type', '=', 'form_photo')
        .where('entity_id', '=', String(photo.photoId))
        .execute();
      expect(audit.map((row) => row.event_type).sort()).toEqual(['form_photo.uploaded', 'form_photo.viewed']);
    });

    it('converts a PNG to JPEG', async () => {
      const png = await sharp({ create: { width: 50, height: 40, channels: 4, background: '#808080' } })
        .png()
        .toBuffer();
      const response = await upload('crc', png);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ sourceType: 'png', contentType: 'image/jpeg', width: 50 });
    });

    it('converts a HEIC (HEVC) photo to JPEG', async () => {
      const response = await upload('crc', HEIC_64X48);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        sourceType: 'heic',
        contentType: 'image/jpeg',
        width: 64,
        height: 48,
      });
      const read = await as(
        'crc',
        'GET',
        `/api/studies/${studyId}/subjects/${subjectId}/photos/${response.json().photoId}`,
      );
      const { dominant } = await sharp(read.rawPayload).stats();
      // the source's colour (#b09080) survived the decoding, within the codecs' rounding
      expect(Math.abs(dominant.r - 0xb0)).toBeLessThan(24);
      expect(Math.abs(dominant.b - 0x80)).toBeLessThan(24);
    });

    it('refuses other types by their bytes (415), whatever the name says, and oversized files (413)', async () => {
      const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64');
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      for (const bytes of [gif, svg, Buffer.from('%PDF-1.4\n')]) {
        const response = await upload('crc', bytes);
        expect(response.statusCode, response.body).toBe(415);
        expect(response.json().error.code).toBe('photo_type_not_allowed');
      }
      const huge = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16 * 1024 * 1024)]);
      const tooLarge = await upload('crc', huge);
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json().error.code).toBe('photo_too_large');
      // JPEG's first bytes and then rubbish: not a 500
      const broken = await upload(
        'crc',
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 7)]),
      );
      expect(broken.statusCode).toBe(422);
      expect(broken.json().error.code).toBe('photo_unreadable');
    });

    it('keeps other sites and other forms out', async () => {
      const bytes = await jpegWithGps();
      expect((await upload('crc3', bytes)).statusCode).toBe(404);
      // A monitor reads but does not enter data.
      expect((await upload('cra', bytes)).statusCode).toBe(403);
      // A form without a photo item
      const body = multipart('photo', 'ear.jpg', bytes);
      const noPhotoForm = await app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/vitalSigns/photos`,
        payload: body.payload,
        headers: { ...body.headers, ...(session.crc?.headers ?? {}) },
      });
      expect(noPhotoForm.statusCode).toBe(404);
      // Who may write and where are checked before a byte of the file is read: an outsider's file over
      // the size limit is answered "not found", not "too large", and a monitor's "forbidden".
      const huge = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16 * 1024 * 1024)]);
      expect((await upload('crc3', huge)).statusCode).toBe(404);
      expect((await upload('cra', huge)).statusCode).toBe(403);
      expect((await upload('crc', huge, 'v1', 'photo', subjectId + 100_000)).statusCode).toBe(404);
      // An unscheduled visit the subject does not have (issue 19): none to hold a photo; one it has: stored.
      expect((await upload('crc', bytes, 'unscheduled-1')).statusCode).toBe(404);
      const added = await as(
        'crc',
        'POST',
        `/api/studies/${studyId}/subjects/${subjectId}/unscheduled-visits`,
        {
          visitDate: '2026-11-10',
          reason: '이루',
        },
      );
      expect(added.statusCode, added.body).toBe(201);
      expect((await upload('crc', bytes, added.json().visitKey)).statusCode).toBe(201);
      const uploaded = (await upload('crc', bytes)).json();
      expect(
        (await as('crc3', 'GET', `/api/studies/${studyId}/subjects/${subjectId}/photos/${uploaded.photoId}`))
          .statusCode,
      ).toBe(404);
    });

    it('saves the photo and the tracing through the form: the server computes the percent, changes are audited', async () => {
      const photo = (await upload('crc', await jpegWithGps())).json();
      const first = tracing(0.4, 0.16);
      const saved = await as('crc', 'PUT', formUrl(), {
        values: { photo: photo.reference, tracing: first },
        version: 0,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const values = saved.json().values;
      expect(values.perforationPercent).toBe(40);
      expect(values.perforationAreaPercent).toBe(16);
      expect(values.measurementMethod).toBe('traced');

      // The browser's numbers are not taken: a made-up percent is recomputed from the tracing.
      const version = saved.json().version;
      const second = tracing(0.4, 0.2);
      const noReason = await as('crc', 'PUT', formUrl(), {
        values: { photo: photo.reference, tracing: second, perforationPercent: 99 },
        version,
      });
      expect(noReason.statusCode, noReason.body).toBe(422);
      const changed = await as('crc', 'PUT', formUrl(), {
        values: { photo: photo.reference, tracing: second, perforationPercent: 99 },
        version,
        reasons: { tracing: 'Retraced the perforation edge' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().values.perforationPercent).toBe(50);

      const trail = await database()
        .db.selectFrom('audit_events')
        .select(['before', 'after', 'reason'])
        .where('event_type', '=', 'data.item_changed')
        .where('subject_id', '=', subjectId)
        .where('entity_id', '=', 'v1.tympanicPhoto.tracing')
        .orderBy('id')
        .execute();
      // versioned: the first tracing is in the trail as the value before the change
      expect(trail.map((row) => [row.before, row.after, row.reason])).toEqual([
        [{ value: null }, { value: first }, null],
        [{ value: first }, { value: second }, 'Retraced the perforation edge'],
      ]);
    });

    it('prints the photo with its tracing in the casebook PDF', async () => {
      const response = await as('crc', 'GET', `/api/studies/${studyId}/subjects/${subjectId}/casebook.pdf`);
      expect(response.statusCode).toBe(200);
      const dir = mkdtempSync(path.join(tmpdir(), 'cdms-photo-pdf-'));
      try {
        const file = path.join(dir, 'casebook.pdf');
        writeFileSync(file, response.rawPayload);
        // poppler's pdfimages lists the image XObjects: the 320 × 240 photo is one of them.
        const list = execFileSync('pdfimages', ['-list', file]).toString();
        expect(list).toMatch(/\s320\s+240\s/);
        const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString();
        expect(text).toContain('50.0 %');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses a tracing that is not one, and a photo of another form', async () => {
      const current = await as('crc', 'GET', formUrl());
      const version = current.json().version;
      const bad = await as('crc', 'PUT', formUrl(), {
        values: {
          tracing: '{"version":1,"aspect":1,"membrane":{"kind":"ellipse","cx":3,"cy":0,"rx":1,"ry":1}}',
        },
        version,
        reasons: { tracing: 'x' },
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.code).toBe('invalid_values');

      const v2photo = (await upload('crc', await jpegWithGps(), 'v2')).json();
      const wrongForm = await as('crc', 'PUT', formUrl(), {
        values: { photo: v2photo.reference },
        version,
        reasons: { photo: 'x' },
      });
      expect(wrongForm.statusCode).toBe(422);
      expect(wrongForm.json().error.code).toBe('photo_not_of_form');
      const madeUp = await as('crc', 'PUT', formUrl('v2'), {
        values: { photo: `${v2photo.photoId}:${'0'.repeat(64)}` },
        version: 0,
      });
      expect(madeUp.json().error.code).toBe('photo_not_of_form');
    });

    it('refuses an upload while the form is frozen', async () => {
      const frozen = await as('cra', 'POST', `/api/studies/${studyId}/holds`, {
        kind: 'frozen',
        target: { level: 'form', subjectPk: subjectId, visitKey: 'v3', formKey: 'tympanicPhoto' },
        reason: 'Review',
      });
      if (frozen.statusCode !== 201 && frozen.statusCode !== 200) throw new Error(frozen.body);
      const response = await upload('crc', await jpegWithGps(), 'v3');
      expect(response.statusCode).toBe(423);
    });
  },
  { seed: 'demo' },
);

it('sniffs HEIC by its ftyp box, not its name', () => {
  const box = (brands: string) => {
    const bytes = Buffer.alloc(8 + brands.length);
    bytes.writeUInt32BE(8 + brands.length, 0);
    bytes.write('ftyp', 4, 'ascii');
    bytes.write(brands, 8, 'ascii');
    return bytes;
  };
  expect(sniffPhotoType(box('heic\0\0\0\0mif1heic'))).toBe('heic');
  expect(sniffPhotoType(box('mif1\0\0\0\0mif1heic'))).toBe('heic');
  expect(sniffPhotoType(box('avif\0\0\0\0mif1avif'))).toBeUndefined();
  expect(sniffPhotoType(box('isom\0\0\0\0isomavc1'))).toBeUndefined();
});
