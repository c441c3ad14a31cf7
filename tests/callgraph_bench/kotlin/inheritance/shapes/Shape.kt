package shapes

interface Drawable {
    fun draw(canvas: Canvas)

    fun outline(canvas: Canvas) {
        canvas.stroke(bounds())
    }

    fun bounds(): String
}

abstract class Shape(val name: String) : Drawable {
    abstract fun area(): Double

    open fun describe(): String = "$name with area ${format(area())}"

    protected fun format(value: Double): String = "%.2f".format(value)

    override fun bounds(): String = "[$name]"
}
