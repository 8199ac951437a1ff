#include <ft2build.h>
#include FT_FREETYPE_H

// FreeType's flags are macros of long type; Swift sees these as plain constants.
static const int32_t reel_ft_load_render = FT_LOAD_RENDER;
static const int32_t reel_ft_load_default = FT_LOAD_DEFAULT;
