/**
 * The page being edited, live, beside its form: the app's own page (drafts shown) in a
 * frame, reloaded a moment after each change is saved. Opened from a document's "Preview"
 * tab (studio/structure.ts); "Open preview" opens the same page in a new tab.
 */
import { EyeOpenIcon, LaunchIcon, RefreshIcon } from "@sanity/icons";
import { Button, Card, Flex, Spinner, Stack, Text } from "@sanity/ui";
import { useEffect, useRef, useState } from "react";
import type { DocumentActionComponent, SanityDocument } from "sanity";
import { pagePathOf, previewLink } from "./page-path";
import { usePreviewSecret, usePreviewSecretSource } from "./use-preview-link";

/** Drafts are saved as the editor types; the frame reloads this long after the last save. */
const RELOAD_AFTER_MS = 800;

export function PreviewPane({ document }: { document: { displayed: Partial<SanityDocument> } }) {
  const path = pagePathOf(document.displayed);
  const { secret, error } = usePreviewSecret();
  const [reloads, setReloads] = useState(0);
  const revision = document.displayed?._rev;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => setReloads((n) => n + 1), RELOAD_AFTER_MS);
    return () => clearTimeout(timer);
  }, [revision]);

  if (!path) return <Message text="This document has no page of its own. Preview a page that uses it (a quiz, an offer, a plan)." />;
  if (error) return <Message text={`The preview could not be opened: ${error}`} />;
  if (!secret)
    return (
      <Flex align="center" justify="center" padding={5}>
        <Spinner muted />
      </Flex>
    );
  const link = previewLink(secret, path);
  return (
    <Flex direction="column" style={{ height: "100%" }}>
      <Card padding={2} borderBottom>
        <Flex align="center" gap={2}>
          <Text size={1} muted style={{ flex: 1 }}>
            {path} · your unpublished changes
          </Text>
          <Button icon={RefreshIcon} mode="bleed" title="Reload" onClick={() => setReloads((n) => n + 1)} />
          <Button as="a" href={link} target="_blank" rel="noopener" icon={LaunchIcon} mode="bleed" title="Open in a new tab" />
        </Flex>
      </Card>
      <iframe key={reloads} src={link} title={`Preview of ${path}`} style={{ flex: 1, width: "100%", border: 0, background: "white" }} />
    </Flex>
  );
}

function Message({ text }: { text: string }) {
  return (
    <Card padding={4}>
      <Stack space={3}>
        <Text size={1}>{text}</Text>
      </Stack>
    </Card>
  );
}

/** "Open preview": the page with the unpublished changes, in a new tab. */
export const previewAction: DocumentActionComponent = ({ draft, published }) => {
  const path = pagePathOf(draft ?? published);
  const secret = usePreviewSecretSource();
  return {
    label: "Open preview",
    icon: EyeOpenIcon,
    disabled: !path,
    title: path ? "Open the page with your unpublished changes" : "This document has no page of its own",
    onHandle: () => {
      // Opened at once (a tab opened later would be blocked as a pop-up), then sent to the page.
      const tab = window.open("about:blank", "_blank");
      if (!tab) return;
      tab.opener = null;
      secret().then(
        (value) => tab.location.replace(previewLink(value, path!)),
        () => tab.close(),
      );
    },
  };
};
