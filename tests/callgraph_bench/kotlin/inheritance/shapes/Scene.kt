package shapes

class Scene(private val canvas: Canvas) {
    private val shapes = mutableListOf<Shape>()

    fun add(shape: Shape): Scene {
        shapes.add(shape)
        return this
    }

    fun paint(item: Drawable) {
        item.draw(canvas)
    }

    fun summary(first: Shape): String {
        paint(first)
        return first.describe()
    }
}

fun demo(): String {
    val canvas = Canvas()
    val scene = Scene(canvas)
    val ring = Ring(2.0, 1.0)
    scene.add(Square(3.0)).add(ring)
    scene.paint(ring)
    println(ring.describe())
    println(ring.area())
    println(scene.summary(Circle(1.0)))
    return canvas.render()
}
