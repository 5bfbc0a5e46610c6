// Hand-written in-process cases of the dashdash and Tool Card checks (dashdash-*, toolcard-*), beyond
// their fixtures: each breaks one thing. test/checks.test.ts runs them.
import { referenceBehaviour } from '../../reference-server/server.js';
import { REFERENCE_CARDS } from '../helpers.js';
import { mapTools, plain, ref, type CheckCases } from './in-process-cases.js';

export const DASHDASH_CARD_CASES: CheckCases = {
  'dashdash-server-metadata': {
    valid: [{ name: 'no dashdash at all: skipped', server: { script: plain }, status: 'skip' }],
    invalid: [
      {
        name: 'specVersion 0.1.0',
        server: ref({
          initializeExtras: () => ({
            dashdash: { ...(referenceBehaviour.initializeExtras().dashdash as object), specVersion: '0.1.0' },
          }),
        }),
        codes: ['spec-version-too-old'],
      },
      { name: 'dashdash on tools only', server: ref({ initializeExtras: () => ({}) }), codes: ['not-in-initialize'] },
      {
        name: '--require dashdash on a server without it',
        server: { script: plain },
        options: { require: ['dashdash'] },
        codes: ['dashdash-required'],
      },
    ],
  },
  'dashdash-tool-metadata': {
    invalid: [
      {
        name: 'reverseMethod names no tool',
        server: ref(
          mapTools((t, i) =>
            i === 0 ? { ...t, dashdash: { ...(t.dashdash as object), reverseMethod: 'undo_everything' } } : t,
          ),
        ),
        codes: ['reverse-method-unknown'],
      },
    ],
  },
  'dashdash-resource-metadata': { invalid: [] },
  'dashdash-ai-help': {
    invalid: [
      {
        name: 'section ignored',
        server: ref({ aiHelp: (params) => referenceBehaviour.aiHelp({ ...params, section: undefined }) }),
        codes: ['section-not-honoured'],
      },
      {
        name: 'no ai_help',
        server: ref({
          aiHelp: () => {
            throw Object.assign(new Error('Method not found'), { code: -32601 });
          },
        }),
        codes: ['not-implemented'],
      },
    ],
  },
  'toolcard-files': {
    valid: [{ name: 'no --cards: skipped with the reason', server: ref(), status: 'skip' }],
    invalid: [
      {
        name: 'a card for a tool the server does not list',
        server: ref({ listTools: (s) => referenceBehaviour.listTools(s).filter((t) => t.name !== 'search_notes') }),
        options: { cardsDir: REFERENCE_CARDS },
        codes: ['card-for-unlisted-tool'],
      },
    ],
  },
  'toolcard-well-known': {
    valid: [{ name: 'over stdio: skipped by the runner (needs http)', server: ref(), status: 'skip' }],
    invalid: [
      {
        name: 'destructive without approval',
        server: ref(
          {
            toolCard: (tool) => {
              const c = referenceBehaviour.toolCard(tool) as { safety?: Record<string, unknown> };
              return tool === 'delete_note' ? { ...c, safety: { ...c.safety, human_approval_required: false } } : c;
            },
          },
          'http',
        ),
        codes: ['destructive-without-approval'],
      },
      {
        name: 'one tool without a card',
        server: ref(
          { toolCard: (tool) => (tool === 'get_note' ? undefined : referenceBehaviour.toolCard(tool)) },
          'http',
        ),
        codes: ['cards-missing'],
      },
    ],
  },
};
