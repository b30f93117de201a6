import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { Spinner } from '@bahi/ui-kit';
import './i18n';
import { makeRouter } from './router';
import './shell.css';

// Suspense: the shell's catalogue (and later each remote's) loads in the active language first.
createRoot(document.getElementById('root')!).render(
  <Suspense fallback={<Spinner />}>
    <RouterProvider router={makeRouter()} />
  </Suspense>,
);
