import type { input } from "zod/v4/core";

/** The values a form's fields hold before validation: what `useForm<...>` types its fields with. */
export type FormInput<Schema> = Schema extends import("zod/v4/core").$ZodType ? input<Schema> : never;
