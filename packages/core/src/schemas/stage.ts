import { Type, type Static } from '@sinclair/typebox';
import { AppParamsSchema, FlagStateVersionsSchema, IdSchema, NameSchema, OrderSchema, strictObject } from './common.js';
import { Text } from './text.js';

/** The CSS named colors (CSS Color Module Level 4), lower case. A stage color is one of these or a hex code. */
export const HTML_COLOR_NAMES: ReadonlySet<string> = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood ' +
    'cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod ' +
    'darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon ' +
    'darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray ' +
    'dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green ' +
    'greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon ' +
    'lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon ' +
    'lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta ' +
    'maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen ' +
    'mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive ' +
    'olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru ' +
    'pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen ' +
    'seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato ' +
    'turquoise violet wheat white whitesmoke yellow yellowgreen'
  ).split(' '),
);

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** "An HTML color name or a hex code" (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`); names are case-insensitive. */
export function isHtmlColor(value: string): boolean {
  return HEX_COLOR.test(value) || HTML_COLOR_NAMES.has(value.toLowerCase());
}

/**
 * 1..64 characters (spec). The pattern only admits the two shapes; `isHtmlColor` then checks the name against
 * the list, which a JSON Schema pattern cannot do case-insensitively without becoming unreadable.
 */
export const ColorSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^(?:#[0-9a-fA-F]{3,8}|[a-zA-Z]+)$',
  description: 'An HTML color name or a hex code',
});

export const StageHeaderSchema = Type.Object(
  {
    id: IdSchema,
    name: Type.String({ minLength: 1 }),
    color: Text({ minLength: 1, maxLength: 64 }),
    order: Type.Integer(),
  },
  { additionalProperties: false, $id: 'StageHeader' },
);
export type StageHeader = Static<typeof StageHeaderSchema>;

/**
 * A stage update answers the stage and, since the flags on it are served with its header, the versions of every
 * environment of the app (advanced when a flag uses the stage).
 */
export const StageUpdateResponseSchema = Type.Object(
  { ...StageHeaderSchema.properties, flagStateVersions: FlagStateVersionsSchema },
  { additionalProperties: false },
);

export const StageParamsSchema = Type.Object({ appId: IdSchema, stageId: IdSchema });
export const StagesParamsSchema = AppParamsSchema;

export const ListStagesResponseSchema = Type.Object({ data: Type.Array(StageHeaderSchema) }, { additionalProperties: false });

/** Extension: create a stage; `order` defaults to after the last stage. */
export const CreateStageBodySchema = strictObject({
  name: NameSchema,
  color: ColorSchema,
  order: Type.Optional(OrderSchema),
});
export type CreateStageBody = Static<typeof CreateStageBodySchema>;

export const UpdateStageBodySchema = strictObject({
  name: Type.Optional(NameSchema),
  color: Type.Optional(ColorSchema),
  order: Type.Optional(OrderSchema),
});
export type UpdateStageBody = Static<typeof UpdateStageBodySchema>;
