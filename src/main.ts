import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { nav } from './app/nav.svelte.ts';
import { data } from './app/db.svelte.ts';
import { pwa } from './app/pwa.svelte.ts';
import { tellStarted } from './app/start-check.ts';

const target = document.getElementById('app');
if (!target) throw new Error('Rollcall: #app element missing from index.html');

nav.init();
void data.load().catch(() => undefined); // a failure is shown by the shell (data.fatal)
pwa.register();

const app = mount(App, { target });
// the start check (public/start-check.js) shows no "could not start" message from now on
tellStarted();

export default app;
