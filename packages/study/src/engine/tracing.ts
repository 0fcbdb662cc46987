import { z } from 'zod';

// Issue 19 item 2: the tracing drawn on an eardrum photograph, and the geometry that turns it into the
// perforation's area % and diameter %. A tracing is an item value (a JSON text), so it is saved, audited,
// versioned and exported like any other value; the server validates it with `parseTracing` and the engine
// recomputes the percentages from it (`tracingAreaPercent` / `tracingDiameterPercent`), never trusting the
// browser's numbers.
//
// Coordinates are image-relative: x is a fraction of the photo's width, y of its height (0..1). The photo's
// aspect ratio (width / height) travels with the tracing, so lengths are measured in true proportions: in
// "height units" a point is (x × aspect, y). A pixel tracing gives ratios, not millimetres: the diameters in
// mm stay typed (docs/tympanic-photo.md).

const coordinate = z.number().min(0).max(1);
export const tracingPointSchema = z.tuple([coordinate, coordinate]);
export type TracingPoint = z.infer<typeof tracingPointSchema>;

export const TRACING_MAX_POINTS = 200;

export const tracingShapeSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('polygon'),
    points: z.array(tracingPointSchema).min(3).max(TRACING_MAX_POINTS),
  }),
  z.strictObject({
    kind: z.literal('ellipse'),
    cx: coordinate,
    cy: coordinate,
    /** Half-axes along the photo's width and height, as fractions of the width and the height. */
    rx: z.number().positive().max(1),
    ry: z.number().positive().max(1),
  }),
]);
export type TracingShape = z.infer<typeof tracingShapeSchema>;

/** A straight line drawn across an outline: its diameter measured by hand. */
export const tracingLineSchema = z.tuple([tracingPointSchema, tracingPointSchema]);
export type TracingLine = z.infer<typeof tracingLineSchema>;

export const tracingSchema = z.strictObject({
  version: z.literal(1),
  /** The photo's width / height. */
  aspect: z.number().min(0.1).max(10),
  membrane: tracingShapeSchema.nullable(),
  perforation: tracingShapeSchema.nullable(),
  /** Optional drawn diameters: when both are drawn, the diameter % is their ratio. */
  membraneDiameter: tracingLineSchema.nullable().optional(),
  perforationDiameter: tracingLineSchema.nullable().optional(),
});
export type Tracing = z.infer<typeof tracingSchema>;

/** The longest text a tracing may be (200-point outlines fit well within it). */
export const TRACING_MAX_LENGTH = 20_000;

/** The tracing in a stored value (JSON text), or null when the text is not a valid tracing. */
export function parseTracing(value: unknown): Tracing | null {
  if (typeof value !== 'string' || value.length > TRACING_MAX_LENGTH) return null;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return null;
  }
  const parsed = tracingSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The value stored for a tracing: its JSON text. */
export function serializeTracing(tracing: Tracing): string {
  return JSON.stringify(tracing);
}

type Point = readonly [number, number];

/** Shoelace formula: the area of a simple polygon (absolute, either winding). */
export function polygonArea(points: readonly Point[]): number {
  let twice = 0;
  for (let i = 0; i < points.length; i += 1) {
    const [x1, y1] = points[i] as Point;
    const [x2, y2] = points[(i + 1) % points.length] as Point;
    twice += x1 * y2 - x2 * y1;
  }
  return Math.abs(twice) / 2;
}

export function ellipseArea(rx: number, ry: number): number {
  return Math.PI * rx * ry;
}

/** The longest distance between two vertices (the polygon's maximum caliper diameter). */
export function polygonMaxDiameter(points: readonly Point[]): number {
  let longest = 0;
  for (let i = 0; i < points.length; i += 1) {
    for (let j = i + 1; j < points.length; j += 1) {
      const [x1, y1] = points[i] as Point;
      const [x2, y2] = points[j] as Point;
      longest = Math.max(longest, Math.hypot(x2 - x1, y2 - y1));
    }
  }
  return longest;
}

/** The diameter of the circle with the same area. */
export function equivalentDiameter(area: number): number {
  return 2 * Math.sqrt(area / Math.PI);
}

function toTrueProportions(point: Point, aspect: number): Point {
  return [point[0] * aspect, point[1]];
}

/** Area of an outline in true proportions (height units²). */
export function shapeArea(shape: TracingShape, aspect: number): number {
  if (shape.kind === 'ellipse') return ellipseArea(shape.rx * aspect, shape.ry);
  return polygonArea(shape.points.map((p) => toTrueProportions(p, aspect)));
}

/** Longest diameter of an outline in true proportions (height units). */
export function shapeMaxDiameter(shape: TracingShape, aspect: number): number {
  if (shape.kind === 'ellipse') return 2 * Math.max(shape.rx * aspect, shape.ry);
  return polygonMaxDiameter(shape.points.map((p) => toTrueProportions(p, aspect)));
}

function lineLength(line: TracingLine, aspect: number): number {
  const [a, b] = line.map((p) => toTrueProportions(p, aspect)) as [Point, Point];
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

/** Perforation area / membrane area × 100, or null while either outline is missing. */
export function tracingAreaPercent(tracing: Tracing): number | null {
  if (!tracing.membrane || !tracing.perforation) return null;
  const membrane = shapeArea(tracing.membrane, tracing.aspect);
  if (membrane <= 0) return null;
  return (shapeArea(tracing.perforation, tracing.aspect) / membrane) * 100;
}

/**
 * Perforation diameter / membrane diameter × 100: the two drawn diameters when both are drawn, otherwise
 * the outlines' longest diameters; null while neither pair is there.
 */
export function tracingDiameterPercent(tracing: Tracing): number | null {
  if (tracing.membraneDiameter && tracing.perforationDiameter) {
    const membrane = lineLength(tracing.membraneDiameter, tracing.aspect);
    if (membrane <= 0) return null;
    return (lineLength(tracing.perforationDiameter, tracing.aspect) / membrane) * 100;
  }
  if (!tracing.membrane || !tracing.perforation) return null;
  const membrane = shapeMaxDiameter(tracing.membrane, tracing.aspect);
  if (membrane <= 0) return null;
  return (shapeMaxDiameter(tracing.perforation, tracing.aspect) / membrane) * 100;
}

/** A stored photo as an item value: `<id>:<sha256 hex>`, the photo's id and content hash. */
export const PHOTO_REFERENCE_PATTERN = /^([1-9][0-9]{0,9}):([0-9a-f]{64})$/;

export function parsePhotoReference(value: unknown): { photoId: number; sha256: string } | null {
  if (typeof value !== 'string') return null;
  const match = PHOTO_REFERENCE_PATTERN.exec(value);
  if (!match) return null;
  const photoId = Number(match[1]);
  if (photoId > 2_147_483_647) return null;
  return { photoId, sha256: match[2] as string };
}

export function photoReference(photoId: number, sha256: string): string {
  return `${photoId}:${sha256}`;
}
