/**
 * Every picture from content: an image uploaded in the Studio (served by Sanity's image CDN
 * in the widths its srcSet offers) or a file of the app's, both with their own width and
 * height set so the page does not move when they load. `sizes` says how wide the slot is,
 * so the browser picks the smallest width that fills it sharply.
 */
import type { ContentImage as Image } from "~/content-model/content-types";

export function ContentImage({
  image,
  sizes,
  className = "",
  eager = false,
}: {
  image: Pick<Image, "src" | "srcSet" | "width" | "height" | "alt" | "position">;
  /** The slot's width: "96px", "(min-width: 640px) 36rem, 100vw". */
  sizes: string;
  className?: string;
  /** Above the fold: load at once instead of when scrolled near. */
  eager?: boolean;
}) {
  return (
    <img
      src={image.src}
      srcSet={image.srcSet ?? undefined}
      sizes={image.srcSet ? sizes : undefined}
      width={image.width}
      height={image.height}
      alt={image.alt}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      // Where the slot crops the picture, the editor's hotspot stays in view.
      style={image.position ? { objectPosition: image.position } : undefined}
      className={className}
    />
  );
}
