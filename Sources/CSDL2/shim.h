// Macros of SDL2 that Swift cannot import directly.
#ifndef REEL_CSDL2_SHIM_H
#define REEL_CSDL2_SHIM_H

#include <SDL2/SDL.h>

static inline int reel_sdl_windowpos_undefined(void) { return SDL_WINDOWPOS_UNDEFINED; }
static inline SDL_AudioFormat reel_sdl_audio_f32(void) { return AUDIO_F32SYS; }
static inline SDL_AudioFormat reel_sdl_audio_s16(void) { return AUDIO_S16SYS; }

#endif
