import { serializeTracing, type Tracing, type TracingPoint } from '@cdms/study';
import sharp from 'sharp';

// Issue 19 item 4: the living demo's eardrum photographs, drawn here (never downloaded): an otoscope's
// round field on black, a pearly grey-pink membrane with the malleus handle and the cone of light, and a
// dark red perforation of the planned size. The tracing the coordinator "drew" follows the same
// geometry, so the percent it gives is the plan's: the membrane traced as an ellipse, the perforation as
// a 16-point polygon on its edge.

export interface DemoEardrum {
  /** Perforation diameter / membrane diameter (0: healed, no perforation). */
  perforationRatio: number;
  /** The ear: the malleus leans towards the front, which is left on a right ear's photo. */
  side: 'L' | 'R';
  /** A little variety between subjects and visits (0..1). */
  variation: number;
}

const WIDTH = 800;
const HEIGHT = 600;
const CX = 400;
const CY = 300;
/** Membrane half-axes in pixels: a little taller than wide on screen is typical, here slightly wide. */
const MEMBRANE_A = 230;
const MEMBRANE_B = 0.92 * MEMBRANE_A;
const PERFORATION_POINTS = 16;

function perforationGeometry(drawing: DemoEardrum) {
  const r = drawing.perforationRatio * MEMBRANE_A;
  const front = drawing.side === 'R' ? -1 : 1;
  // In the anterior-inferior quadrant, as central perforations usually sit, kept inside the membrane.
  const offset = (1 - drawing.perforationRatio) * 0.35 * MEMBRANE_A;
  return {
    cx: CX + front * offset * (0.6 + 0.2 * drawing.variation),
    cy: CY + offset * 0.5,
    rx: r,
    ry: 0.85 * r,
  };
}

function perforationPolygon(drawing: DemoEardrum): TracingPoint[] {
  const p = perforationGeometry(drawing);
  return Array.from({ length: PERFORATION_POINTS }, (_, i) => {
    const angle = (2 * Math.PI * i) / PERFORATION_POINTS;
    return [(p.cx + p.rx * Math.cos(angle)) / WIDTH, (p.cy + p.ry * Math.sin(angle)) / HEIGHT];
  });
}

/** The drawing as an SVG document (sizes in pixels of the 800 × 600 photo). */
export function eardrumSvg(drawing: DemoEardrum): string {
  const front = drawing.side === 'R' ? -1 : 1;
  const p = perforationGeometry(drawing);
  const umbo = { x: CX + front * 8, y: CY + 10 };
  const hue = Math.round(8 + 14 * drawing.variation);
  const perforation =
    drawing.perforationRatio > 0
      ? `<ellipse cx="${p.cx}" cy="${p.cy}" rx="${p.rx}" ry="${p.ry}" fill="url(#hole)" stroke="#f1d9cf" stroke-width="5" stroke-opacity="0.7"/>`
      : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <defs>
    <radialGradient id="canal" cx="50%" cy="50%" r="50%">
      <stop offset="0%" stop-color="hsl(${hue}, 45%, 62%)"/>
      <stop offset="80%" stop-color="hsl(${hue}, 50%, 38%)"/>
      <stop offset="100%" stop-color="#1a0d0a"/>
    </radialGradient>
    <radialGradient id="membrane" cx="46%" cy="42%" r="62%">
      <stop offset="0%" stop-color="#e9e3e6"/>
      <stop offset="55%" stop-color="#cdbfc3"/>
      <stop offset="100%" stop-color="hsl(${hue}, 28%, 62%)"/>
    </radialGradient>
    <radialGradient id="hole" cx="45%" cy="40%" r="60%">
      <stop offset="0%" stop-color="#a8433b"/>
      <stop offset="70%" stop-color="#6e1f1c"/>
      <stop offset="100%" stop-color="#3c0f0e"/>
    </radialGradient>
    <linearGradient id="reflex" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0%" stop-color="#ffffff" stop-opacity="0.85"/>
      <stop offset="100%" stop-color="#ffffff" stop-opacity="0"/>
    </linearGradient>
  </defs>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="#000"/>
  <circle cx="${CX}" cy="${CY}" r="292" fill="url(#canal)"/>
  <ellipse cx="${CX}" cy="${CY}" rx="${MEMBRANE_A}" ry="${MEMBRANE_B}" fill="url(#membrane)" stroke="#b79c94" stroke-width="6"/>
  <path d="M ${CX - front * 40} ${CY - MEMBRANE_B + 22} Q ${CX - front * 18} ${CY - 90} ${umbo.x} ${umbo.y}" stroke="#f4ecd0" stroke-width="14" stroke-linecap="round" fill="none"/>
  <circle cx="${CX - front * 46}" cy="${CY - MEMBRANE_B + 26}" r="13" fill="#f6eed6"/>
  <polygon points="${umbo.x},${umbo.y + 6} ${umbo.x + front * 150},${umbo.y + 150} ${umbo.x + front * 100},${umbo.y + 176}" fill="url(#reflex)"/>
  ${perforation}
</svg>`;
}

/** The photo as a camera would give it: JPEG (the upload path converts it like any other). */
export async function drawEardrumPhoto(drawing: DemoEardrum): Promise<Buffer> {
  return sharp(Buffer.from(eardrumSvg(drawing)))
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** The tracing of the drawing (both outlines; the membrane only when healed). */
export function eardrumTracing(drawing: DemoEardrum): string {
  const tracing: Tracing = {
    version: 1,
    aspect: WIDTH / HEIGHT,
    membrane: {
      kind: 'ellipse',
      cx: CX / WIDTH,
      cy: CY / HEIGHT,
      rx: MEMBRANE_A / WIDTH,
      ry: MEMBRANE_B / HEIGHT,
    },
    perforation:
      drawing.perforationRatio > 0 ? { kind: 'polygon', points: perforationPolygon(drawing) } : null,
  };
  return serializeTracing(tracing);
}
