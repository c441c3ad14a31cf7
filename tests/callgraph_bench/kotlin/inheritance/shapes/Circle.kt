package shapes

open class Circle(val radius: Double) : Shape("circle") {
    override fun area(): Double = Math.PI * radius * radius

    override fun draw(canvas: Canvas) {
        outline(canvas)
        canvas.fill(bounds())
    }
}

class Ring(radius: Double, private val inner: Double) : Circle(radius) {
    override fun area(): Double = super.area() - Math.PI * inner * inner

    override fun describe(): String = "ring: " + super.describe()

    override fun draw(canvas: Canvas) {
        super.draw(canvas)
        this.outline(canvas)
    }
}
