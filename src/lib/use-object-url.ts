import { useEffect, useState } from 'react';

/**
 * An object URL for showing `blob` in an <img>, released when the blob changes or the component leaves.
 * Created in an effect (not a memo) so that StrictMode's second effect run gets a live URL again.
 */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) {
      setUrl(undefined);
      return undefined;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return url;
}
