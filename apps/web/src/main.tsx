import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './i18n/i18n.ts';
import './styles/global.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('The page has no #root element.');

createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
