import sanitizeHtml from 'sanitize-html';

/** Where our uploaded images are served; the only image source rich text may use. */
export const UPLOADED_IMAGE_PATH = '/api/uploads/images/';

/**
 * The allow-list for rich text (what the TipTap editor produces): structure and emphasis, links
 * to http(s)/mailto, and images we host. Scripts, event handlers, styles other than alignment,
 * `javascript:` and `data:` URLs never get stored.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'h1',
    'h2',
    'h3',
    'h4',
    'ul',
    'ol',
    'li',
    'blockquote',
    'code',
    'pre',
    'hr',
    'a',
    'img',
  ],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    p: ['style'],
    h1: ['style'],
    h2: ['style'],
    h3: ['style'],
    h4: ['style'],
  },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center|justify)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  transformTags: {
    // Links open in a new tab without handing it our window.
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }),
  },
  exclusiveFilter: (frame) =>
    frame.tag === 'img' &&
    !(typeof frame.attribs.src === 'string' && frame.attribs.src.startsWith(UPLOADED_IMAGE_PATH)),
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options).trim();
}

export { isBlankRichText } from '@cdms/contract';
