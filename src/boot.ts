// Imported first by main.tsx: ES modules evaluate in import order, so the session request leaves
// before react-admin and MUI evaluate, and its answer is in when the app first asks for it.
import { sendEarly } from './http/early';

sendEarly('/Ajax/GetCurrentMember', '{}');
