/** Shared by the server (reads it) and the document head (writes it). Not a secret: a preference. */
export const TIME_ZONE_COOKIE = "gc_tz";

/** Sets gc_tz from the browser's zone. Inline in <head>: tiny, and runs before any form is sent. */
export const TIME_ZONE_SCRIPT = `try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z&&document.cookie.indexOf("${TIME_ZONE_COOKIE}="+encodeURIComponent(z))<0)document.cookie="${TIME_ZONE_COOKIE}="+encodeURIComponent(z)+";path=/;max-age=31536000;samesite=lax"}catch(e){}`;
