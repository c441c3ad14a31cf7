package shapes

trait Shape {
  def area: Double
  def perimeter: Double
  def describe(): String = f"${kind()} with area $area%.2f"
  protected def kind(): String = "shape"
}

trait Scalable {
  def scale(factor: Double): Shape
}
