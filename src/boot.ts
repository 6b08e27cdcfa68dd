// Imported first by main.tsx: ES modules evaluate in import order, so the session request leaves
// before react-admin and MUI evaluate, and its answer is in when the app first asks for it.
// A page the server rendered (src/ssr) carries its session already: nothing to ask.
import { sendEarly } from './http/early';

// The id of ssr/pageState.ts's PAGE_STATE_ID, written here: this module may import nothing else.
if (!document.getElementById('ssr-state')) sendEarly('/Ajax/GetCurrentMember', '{}');
