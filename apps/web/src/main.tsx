import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { i18nReady } from './i18n/i18n.ts';
import './styles/global.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('The page has no #root element.');

// Korean is ready at once; English waits for its startup chunk (i18n.ts). Until then index.html's
// loading state stays. The first render as a transition: React renders it in slices, yielding to the
// browser between them, rather than in one long task (Total Blocking Time, docs/PERFORMANCE.md).
void i18nReady.then(() => {
  const root = createRoot(rootElement);
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
