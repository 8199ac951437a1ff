import CSDL2
import ReelCore
import ReelText

/// A line of text for the on-screen display (a chapter's title, a message, the list of
/// keys), drawn with FreeType into a texture that is made again only when the text or its
/// room changes.
struct SDLTextLabel {
    private var texture: OpaquePointer?
    private var shown: (text: String, width: Int, height: Int)?

    /// Draws `text` centred in `rect` (or from its left edge), in light grey; nothing when
    /// no font loads.
    mutating func draw(_ text: String, in rect: PixelRect, renderer: OpaquePointer?, rasterizer: TextRasterizer?, leftAligned: Bool = false) {
        guard let renderer, let rasterizer, rect.width > 8, rect.height > 4 else { return }
        if shown?.text != text || shown?.width != rect.width || shown?.height != rect.height {
            destroy()
            guard let picture = try? rasterizer.render(text, color: VAPColor(red: 230, green: 230, blue: 230), bold: false,
                                                       width: rect.width, height: rect.height, pixelSize: rect.height * 3 / 4,
                                                       leftAligned: leftAligned) else { return }
            texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                                        Int32(rect.width), Int32(rect.height))
            guard let texture else { return }
            SDL_UpdateTexture(texture, nil, picture.planes[0].baseAddress, Int32(picture.planes[0].bytesPerRow))
            // The rasterizer's pixels are premultiplied: add them, scaled by what they cover.
            let premultiplied = SDL_ComposeCustomBlendMode(SDL_BLENDFACTOR_ONE, SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD,
                                                           SDL_BLENDFACTOR_ONE, SDL_BLENDFACTOR_ONE_MINUS_SRC_ALPHA, SDL_BLENDOPERATION_ADD)
            if SDL_SetTextureBlendMode(texture, premultiplied) != 0 { SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND) }
            shown = (text, rect.width, rect.height)
        }
        guard let texture else { return }
        var target = SDL_Rect(rect)
        SDL_RenderCopy(renderer, texture, nil, &target)
    }

    mutating func destroy() {
        if let texture { SDL_DestroyTexture(texture) }
        texture = nil
        shown = nil
    }
}
