// The README badge (--badge FILE): progressive disclosure's verdict and the score of what the model
// reads, as a flat SVG in the shape README badges have. Widths come from a fixed per-character
// estimate of 11 px Verdana (no font is measured: the same report gives the same bytes everywhere).
import type { CheckReport } from '../src/generated/report.js';
import { scoreGrade } from '../src/core/score-sentence.js';

const COLORS = { yes: '#2da44e', partly: '#d4a72c', no: '#cf222e', good: '#2da44e', fair: '#d4a72c', poor: '#cf222e' };
const GREY = '#555';
/** Average advance of 11 px Verdana, in px: wide enough that no text is clipped. */
const CHAR_PX = 7;
const PAD = 6;

const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The badge's two halves: what it is about, and the word (and score) with its colour. */
export function badgeParts(report: CheckReport): { label: string; value: string; color: string } {
  const v = report.verdict?.implements;
  const score = report.score?.server;
  if (v)
    return {
      label: 'progressive disclosure',
      value: score !== undefined ? `${v} · ${score}/100` : v,
      color: COLORS[v],
    };
  return {
    label: 'tool descriptions',
    value: score !== undefined ? `${score}/100` : 'not scored',
    color: score !== undefined ? COLORS[scoreGrade(score)] : GREY,
  };
}

/** The badge as an SVG document. */
export function renderBadge(report: CheckReport): string {
  const { label, value, color } = badgeParts(report);
  const left = label.length * CHAR_PX + 2 * PAD;
  const right = value.length * CHAR_PX + 2 * PAD;
  const width = left + right;
  const text = `${label}: ${value}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${esc(text)}">
<title>${esc(text)}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="${GREY}"/><rect x="${left}" width="${right}" height="20" fill="${color}"/><rect width="${width}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text class="label" x="${left / 2}" y="14">${esc(label)}</text>
<text class="value" x="${left + right / 2}" y="14">${esc(value)}</text>
</g>
</svg>
`;
}
