import { apiUrl, getToken } from '@bahi/ui-kit';

/** Fetches a PDF from the documents service with the session token and opens it in a new tab. */
export async function openPdf(path: string, win: Window | null = window.open('', '_blank')): Promise<void> {
  try {
    const token = getToken();
    const res = await fetch(apiUrl(path), { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!res.ok) throw new Error(`${res.status}`);
    const url = URL.createObjectURL(await res.blob());
    if (win) win.location.href = url;
    else window.open(url, '_blank');
  } catch (err) {
    win?.close();
    throw err;
  }
}
