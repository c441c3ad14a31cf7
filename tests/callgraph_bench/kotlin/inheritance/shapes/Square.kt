package shapes

class Square(private val side: Double) : Shape("square") {
    override fun area(): Double = side * side

    override fun draw(canvas: Canvas) {
        canvas.fill(bounds())
    }

    override fun bounds(): String = "square(${format(side)})"
}
