/** Small building blocks shared by the members' pages (home, player, tutorial, profile). */
import { Link, NavLink } from "@remix-run/react";
import { useId, type ReactNode } from "react";
import type { ContentImage, Product } from "~/content-model/content-types";
import { CheckIcon } from "~/components/ui/icons";
import { ContentImage as Picture } from "~/components/content-image";

export function Progress({ value, label }: { value: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={`${value}%`}
      className="h-2 overflow-hidden rounded-full bg-sand"
    >
      <div className="h-full rounded-full bg-rose-500 transition-[width] duration-500" style={{ width: `${value}%` }} />
    </div>
  );
}

/** A content picture filling its slot (cropped around the editor's hotspot when the slot's shape differs). */
export function Illustration({ image, sizes, className = "", eager = false }: { image: ContentImage; sizes: string; className?: string; eager?: boolean }) {
  return <Picture image={image} sizes={sizes} eager={eager} className={`object-cover ${className}`} />;
}

/** A titled card; the section is named by its heading, so it is a landmark a screen reader can jump to. */
export function SectionCard({ title, icon, children, id }: { title: string; icon?: ReactNode; children: ReactNode; id?: string }) {
  const generated = useId();
  const headingId = id ? `${id}-title` : generated;
  return (
    <section id={id} className="card p-5 sm:p-6" aria-labelledby={headingId}>
      <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold">
        {icon}
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function TipList({ tips }: { tips: string[] }) {
  return (
    <ul className="grid gap-3">
      {tips.map((tip) => (
        <li key={tip} className="flex items-start gap-3">
          <span className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-rose-50 text-rose-600">
            <CheckIcon className="h-3.5 w-3.5" />
          </span>
          <span className="text-ink/90">{tip}</span>
        </li>
      ))}
    </ul>
  );
}

type ProductCard = Pick<Product, "_id" | "name" | "kind" | "description" | "details" | "howToUse" | "image" | "shopUrl">;

/**
 * Product cards. 'Learn More' opens the product's details in place (a <details> element, so it
 * works without JavaScript), with a link to a shop when the content gives one.
 */
export function ProductGrid({ products }: { products: ProductCard[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {products.map((product) => (
        <li key={product._id} className="flex gap-4 rounded-2xl border border-line/80 bg-cream/60 p-3">
          <Illustration image={product.image} sizes="96px" className="h-20 w-20 shrink-0 rounded-xl sm:h-24 sm:w-24" />
          <div className="flex min-w-0 flex-1 flex-col">
            <p className="text-xs font-semibold uppercase tracking-wider text-muted">{product.kind}</p>
            <h3 className="font-sans text-base font-semibold tracking-normal">{product.name}</h3>
            <p className="mt-0.5 text-sm text-muted">{product.description}</p>
            <details className="mt-2">
              <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded-full border border-rose-200 px-3 py-1 text-sm font-semibold text-rose-700 hover:bg-rose-50 [&::-webkit-details-marker]:hidden">
                Learn More
              </summary>
              <div className="mt-3 grid gap-2 text-sm text-ink/90" data-testid="product-details">
                {product.details.map((paragraph) => (
                  <p key={paragraph}>{paragraph}</p>
                ))}
                {product.howToUse ? (
                  <p>
                    <span className="font-semibold">How to use: </span>
                    {product.howToUse}
                  </p>
                ) : null}
                {product.shopUrl ? (
                  <a href={product.shopUrl} target="_blank" rel="noopener noreferrer" className="font-semibold text-rose-700 underline underline-offset-2">
                    Shop {product.name}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                ) : null}
              </div>
            </details>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function AvoidList({ items }: { items: { title: string; text: string }[] }) {
  return (
    <ul className="grid gap-3">
      {items.map((item) => (
        <li key={item.title} className="flex items-start gap-3 rounded-2xl bg-[#fdf3f1] p-3">
          <span aria-hidden="true" className="mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-white text-danger">
            <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round">
              <path d="M6 6l12 12M18 6 6 18" />
            </svg>
          </span>
          <span>
            <span className="font-semibold">{item.title}</span>
            <span className="block text-sm text-muted">{item.text}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

export function BackToHome({ className = "" }: { className?: string }) {
  return (
    <Link to="/home" className={`-ml-2 inline-flex items-center gap-1.5 rounded-full px-2 py-2 text-sm font-medium text-muted hover:text-ink ${className}`}>
      <svg
        viewBox="0 0 24 24"
        className="h-4 w-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="M19 12H5m6-6-6 6 6 6" />
      </svg>
      Back to Home
    </Link>
  );
}

const navIcon = { fill: "none", stroke: "currentColor", strokeWidth: 1.8, strokeLinecap: "round", strokeLinejoin: "round", "aria-hidden": true } as const;

/** The members' bottom navigation (home). Plain links: works without JavaScript. */
export function BottomNav({ routineHref }: { routineHref: string | null }) {
  const item =
    "flex flex-1 flex-col items-center gap-0.5 rounded-2xl px-2 py-2 text-xs font-semibold text-muted hover:text-rose-700 aria-[current=page]:text-rose-700";
  return (
    <nav aria-label="Members" className="sticky bottom-0 z-30 mt-10 border-t border-line/70 bg-cream/95 backdrop-blur supports-[backdrop-filter]:bg-cream/80">
      <div className="mx-auto flex max-w-md items-stretch justify-between px-3 pb-[max(0.5rem,env(safe-area-inset-bottom))] pt-1.5">
        <NavLink to="/home" end className={item}>
          <svg viewBox="0 0 24 24" className="h-6 w-6" {...navIcon}>
            <path d="M4 11.5 12 5l8 6.5V19a1 1 0 0 1-1 1h-4.5v-5h-5v5H5a1 1 0 0 1-1-1v-7.5Z" />
          </svg>
          Home
        </NavLink>
        {routineHref ? (
          <Link to={routineHref} className={item}>
            <svg viewBox="0 0 24 24" className="h-6 w-6" {...navIcon}>
              <path d="M12 3c.9 5 3.4 7.6 8 8.5-4.6.9-7.1 3.5-8 8.5-.9-5-3.4-7.6-8-8.5 4.6-.9 7.1-3.5 8-8.5Z" />
            </svg>
            Routine
          </Link>
        ) : null}
        <NavLink to="/path1" className={item}>
          <svg viewBox="0 0 24 24" className="h-6 w-6" {...navIcon}>
            <path d="M4 6.5C6.5 5 9.5 5 12 6.5 14.5 5 17.5 5 20 6.5V19c-2.5-1.5-5.5-1.5-8 0-2.5-1.5-5.5-1.5-8 0V6.5Z" />
            <path d="M12 6.5V19" />
          </svg>
          Learn
        </NavLink>
        <NavLink to="/profile" className={item}>
          <svg viewBox="0 0 24 24" className="h-6 w-6" {...navIcon}>
            <circle cx="12" cy="8.5" r="3.5" />
            <path d="M5 20c.8-3.6 3.6-5.5 7-5.5s6.2 1.9 7 5.5" />
          </svg>
          Profile
        </NavLink>
      </div>
    </nav>
  );
}

/** Section icons, inline SVG: emoji fonts are missing on many systems. */
function SectionIcon({ children }: { children: ReactNode }) {
  return (
    <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-full bg-rose-50 text-rose-600">
      <svg viewBox="0 0 24 24" className="h-[18px] w-[18px]" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {children}
      </svg>
    </span>
  );
}

export const TipsIcon = () => (
  <SectionIcon>
    <path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2V16h5v-.1c0-.8.4-1.5 1-2A6 6 0 0 0 12 3Z" />
  </SectionIcon>
);
export const ProductIcon = () => (
  <SectionIcon>
    <path d="M9 8h6v12a1 1 0 0 1-1 1h-4a1 1 0 0 1-1-1V8ZM10 8V5h4v3M12 5V3h4" />
  </SectionIcon>
);
export const AvoidIcon = () => (
  <SectionIcon>
    <circle cx="12" cy="12" r="8.5" />
    <path d="m6 6 12 12" />
  </SectionIcon>
);
export const MoonIcon = () => (
  <SectionIcon>
    <path d="M19 14.5A7.5 7.5 0 0 1 9.5 5a7.5 7.5 0 1 0 9.5 9.5Z" />
  </SectionIcon>
);
export const FlameIcon = ({ className = "h-5 w-5" }: { className?: string }) => (
  <svg viewBox="0 0 24 24" className={className} fill="currentColor" aria-hidden="true">
    <path d="M12 2.5c.6 3.2-1 5-2.6 6.8C7.8 11 6.5 12.6 6.5 15a5.5 5.5 0 0 0 11 0c0-2.1-1-3.8-2.3-5.2-.2 1.3-.8 2.3-1.9 2.8.5-3.6-.3-7.6-1.3-10.1Z" />
  </svg>
);

type Video = { title: string; src: string; poster: ContentImage; duration: string | null; captions: { src: string; label: string; srclang: string } | null };

function videoType(src: string): string | undefined {
  const path = src.split("?")[0].toLowerCase();
  return path.endsWith(".webm") ? "video/webm" : path.endsWith(".mp4") ? "video/mp4" : undefined;
}

/**
 * A step's video, when its content has one: the browser's own player, with its poster and
 * captions. Slots without a video show the illustration instead (see VideoOrPicture).
 */
export function VideoPlayer({ video, className = "" }: { video: Video; className?: string }) {
  // Captions from another origin (the CMS's file CDN) load only in CORS mode.
  const crossOrigin = /^https?:\/\//.test(video.src) || (video.captions && /^https?:\/\//.test(video.captions.src)) ? "anonymous" : undefined;
  return (
    // The captions track is added whenever the content has one (the Studio asks for it).
    // eslint-disable-next-line jsx-a11y/media-has-caption
    <video
      controls
      preload="metadata"
      playsInline
      poster={video.poster.src}
      width={video.poster.width}
      height={video.poster.height}
      crossOrigin={crossOrigin}
      className={`bg-ink/5 object-cover ${className}`}
      aria-label={video.title}
    >
      <source src={video.src} type={videoType(video.src)} />
      {video.captions ? <track kind="captions" src={video.captions.src} srcLang={video.captions.srclang} label={video.captions.label} default /> : null}
    </video>
  );
}

/** The video slot: the video when there is one, else the picture, never a play button without a video. */
export function VideoOrPicture({ video, image, sizes, className = "" }: { video: Video | null; image: ContentImage; sizes: string; className?: string }) {
  return video ? <VideoPlayer video={video} className={className} /> : <Illustration image={image} sizes={sizes} eager className={className} />;
}
