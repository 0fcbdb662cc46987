import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { i18nReady } from './i18n/i18n.ts';
import './styles/global.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('The page has no #root element.');

// Korean is ready at once; English waits for its startup chunk (i18n.ts). Until then index.html's
// loading state stays.
void i18nReady.then(() =>
  createRoot(rootElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
